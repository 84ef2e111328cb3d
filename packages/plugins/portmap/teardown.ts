/**
 * Removing one container's port mappings (§8.5 DEL), for DEL and for the rollback of a
 * failed ADD: reads what is there, then one transaction with only what exists, so a
 * second DEL touches nothing and a missing table, chain or rule is fine (DEL-3).
 */
import type { Family, IptChainState, NftChainState, NftFamily } from "@tscni/firewall";
import type { PortmapConfig } from "./config.ts";
import { planIptablesDel } from "./plan-iptables.ts";
import { NFT_TABLE, planNftDel } from "./plan-nft.ts";
import type { PortmapPorts } from "./ports.ts";

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A family's nat table, or undefined when ip(6)tables is unusable (`maybeGetIptables`). */
async function natTable(ports: PortmapPorts, family: Family): Promise<IptChainState[] | undefined> {
  try {
    return await ports.firewall.iptables(family, "nat");
  } catch {
    return undefined;
  }
}

/** iptables: the container's chains in every usable family; fails only when neither family is usable. */
async function teardownIptables(ports: PortmapPorts, conf: PortmapConfig, containerID: string): Promise<void> {
  const [v4, v6] = await Promise.all([natTable(ports, 4), natTable(ports, 6)]);
  if (v4 === undefined && v6 === undefined) throw new Error("neither iptables nor ip6tables is usable");
  const tables = new Map<Family, IptChainState[]>();
  if (v4 !== undefined) tables.set(4, v4);
  if (v6 !== undefined) tables.set(6, v6);
  const tx = planIptablesDel(conf, containerID, tables);
  if (tx.length === 0) return;
  try {
    await ports.firewall.apply(tx);
  } catch (err) {
    throw new Error(`could not teardown ipv${tx[0]?.family === 6 ? 6 : 4} dnat: ${message(err)}`);
  }
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
