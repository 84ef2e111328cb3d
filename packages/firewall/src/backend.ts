/**
 * Choosing a backend as the reference does (SPEC 8.0 H-3, 8.5; pkg/ip/ipmasq_linux.go,
 * portmap's main.go): iptables unless iptables does not work and nftables does, checking
 * nftables only in that case, since each check runs tools.
 */
import type { Firewall, FirewallBackend } from "./firewall.ts";

/** True when `backend` works here, through the port's cheap per-backend check when it has one. */
export async function backendWorks(fw: Firewall, backend: FirewallBackend): Promise<boolean> {
  if (fw.supports !== undefined) return fw.supports(backend);
  return (await fw.support())[backend];
}

/** The default backend: `iptables`, unless only `nftables` works (H-3, 8.5). */
export async function defaultBackend(fw: Firewall): Promise<FirewallBackend> {
  if (await backendWorks(fw, "iptables")) return "iptables";
  return (await backendWorks(fw, "nftables")) ? "nftables" : "iptables";
}
