/**
 * Removing one container's port mappings (§8.5 DEL), for DEL and for the rollback of a
 * failed ADD, idempotent: a missing table, chain or rule is fine and a second DEL writes
 * nothing (DEL-3).
 */
import type { NftChainState, NftFamily } from "@tscni/firewall";
import type { PortmapConfig } from "./config.ts";
import { planIptablesDel } from "./plan-iptables.ts";
import { containerNets } from "./plan.ts";
import { NFT_TABLE, planNftDel } from "./plan-nft.ts";
import type { PortmapPorts } from "./ports.ts";

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * iptables (`unforwardPorts`): the container's `CNI-DN-` chain and the legacy `CNI-SN-`
 * chain, each with every jump to it, in the families of the container's addresses (ADD
 * wrote nothing in another; both when the previous result is unknown, as the
 * reference). First as one transaction: the
 * firewall reads each family once and restores only what changes, so a second DEL writes
 * nothing (DEL-3). When that fails (one family's tools unusable, as on a host without
 * IPv6), each family is tried alone, and DEL fails only when neither works.
 */
async function teardownIptables(ports: PortmapPorts, conf: PortmapConfig, containerID: string): Promise<void> {
  const known = containerNets(conf).map((n) => n.ip.family);
  const families = known.length > 0 ? known : ([4, 6] as const);
  const tx = planIptablesDel(conf, containerID, families);
  try {
    await ports.firewall.apply(tx);
    return;
  } catch {
    // Fall through to one family at a time.
  }
  const errors: string[] = [];
  for (const family of families) {
    try {
      await ports.firewall.apply(tx.filter((op) => op.family === family));
    } catch (err) {
      errors.push(`(ip${family === 4 ? "" : "6"}tables) ${message(err)}`);
    }
  }
  if (errors.length < families.length) return;
  if (families.length === 1) throw new Error(errors.join(", "));
  throw new Error(`neither iptables nor ip6tables is usable, ${errors.join(", ")}`);
}

/**
 * nftables: the rules commented with the container ID in both families. A family whose
 * table cannot be read is skipped, as the reference skips a family it cannot open; no
 * support probe first, since reading the two tables answers the same question for less.
 */
async function teardownNft(ports: PortmapPorts, containerID: string): Promise<void> {
  const tables = new Map<NftFamily, NftChainState[]>();
  for (const family of ["ip", "ip6"] as const) {
    const chains = await ports.firewall.nftTable(family, NFT_TABLE).catch(() => undefined);
    if (chains !== undefined) tables.set(family, chains);
  }
  const tx = planNftDel(containerID, tables);
  if (tx.length === 0) return;
  try {
    await ports.firewall.apply(tx);
  } catch (err) {
    throw new Error(`error deleting nftables rules: ${message(err)}`);
  }
}

/** Removes the container's port-mapping rules with the config's backend. */
export async function removePortmapRules(ports: PortmapPorts, conf: PortmapConfig, containerID: string): Promise<void> {
  if (conf.backend === "nftables") await teardownNft(ports, containerID);
  else await teardownIptables(ports, conf, containerID);
}
