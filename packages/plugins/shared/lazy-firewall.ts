/**
 * The real Firewall, loaded on first use: a bridge or ptp call without `ipMasq` never
 * imports the netfilter backends (CONVENTIONS item 9, a lean plugin path).
 */
import type { Firewall } from "@tscni/firewall";

/** A {@link Firewall} that imports and creates `@tscni/firewall/linux` when first called. */
export function lazyLinuxFirewall(): Firewall {
  let real: Promise<Firewall> | undefined;
  const get = (): Promise<Firewall> => (real ??= import("@tscni/firewall/linux").then((m) => m.createLinuxFirewall()));
  return {
    support: async () => (await get()).support(),
    apply: async (tx) => (await get()).apply(tx),
    iptables: async (family, table) => (await get()).iptables(family, table),
    nftTable: async (family, table) => (await get()).nftTable(family, table),
    prepare: async () => {
      await get();
    },
    // Forwarded so backendWorks keeps the per-backend check (one probe, not both).
    supports: async (backend) => {
      const fw = await get();
      return fw.supports !== undefined ? fw.supports(backend) : (await fw.support())[backend];
    },
  };
}
