/**
 * bridge `macspoofchk` (SPEC.md §8.1, the reference's `pkg/link/spoofcheck.go`): frames
 * entering the bridge from the container's host port must carry the container's MAC as
 * source, others are dropped. nftables table `bridge nat`, base chain `PREROUTING`
 * (filter, prerouting, priority -300, policy accept) jumping per host port to
 * `cni-br-iface-<cid>-<ifname>`, which jumps to `...-mac`: return for the MAC, drop the
 * rest. Every rule carries the comment `macspoofchk-<cid>-<ifname>`, by which teardown
 * finds the base chain's rule, as the reference does, so either implementation removes
 * the other's rules.
 */
import type { Firewall, FirewallOp, FirewallTx, NftChainState } from "@tscni/firewall";

const FAMILY = "bridge";
const TABLE = "nat";
const PREROUTING = "PREROUTING";

/** The reference's `uniqueID(containerID, ifName)`: names the chains and the comment. */
export function spoofCheckId(containerID: string, ifName: string): string {
  return `${containerID}-${ifName}`;
}

/** The per-port chain, its MAC chain and the rule comment of one attachment. */
export function spoofCheckNames(refId: string): { ifaceChain: string; macChain: string; comment: string } {
  const ifaceChain = `cni-br-iface-${refId}`;
  return { ifaceChain, macChain: `${ifaceChain}-mac`, comment: `macspoofchk-${refId}` };
}

const at = (chain: string) => ({ family: FAMILY, table: TABLE, chain }) as const;

/**
 * Setup as one transaction: the table and the three chains unless present, the two
 * per-port chains flushed, then the four rules. [DIFF] The reference appends the base
 * chain's jump on every setup; we first delete this attachment's earlier jump (by its
 * comment), so an ADD repeated after a failure leaves one jump, not two.
 */
export function planSpoofCheckSetup(hostIface: string, mac: string, refId: string): FirewallTx {
  const n = spoofCheckNames(refId);
  const ops: FirewallOp[] = [
    { op: "nft.table.ensure", family: FAMILY, table: TABLE },
    {
      op: "nft.chain.ensure",
      ...at(PREROUTING),
      base: { type: "filter", hook: "prerouting", priority: -300, policy: "accept" },
    },
    { op: "nft.chain.ensure", ...at(n.ifaceChain) },
    { op: "nft.chain.ensure", ...at(n.macChain) },
    { op: "nft.chain.flush", ...at(n.ifaceChain) },
    { op: "nft.chain.flush", ...at(n.macChain) },
    { op: "nft.rule.delete", ...at(PREROUTING), comment: n.comment },
    { op: "nft.rule.add", ...at(PREROUTING), rule: `iifname "${hostIface}" jump ${n.ifaceChain}`, comment: n.comment },
    { op: "nft.rule.add", ...at(n.ifaceChain), rule: `jump ${n.macChain}`, comment: n.comment },
    { op: "nft.rule.add", ...at(n.macChain), rule: `ether saddr ${mac.toLowerCase()} return`, comment: n.comment },
    { op: "nft.rule.add", ...at(n.macChain), rule: "drop", comment: n.comment },
  ];
  return ops;
}

/**
 * Teardown (`Teardown`): the base chain's rules with this attachment's comment, then the
 * per-port chain and its MAC chain. The table and base chain stay for other ports. Each
 * step tolerates what is already gone (DEL-3).
 */
export function planSpoofCheckTeardown(refId: string): FirewallTx {
  const n = spoofCheckNames(refId);
  return [
    { op: "nft.rule.delete", ...at(PREROUTING), comment: n.comment },
    { op: "nft.chain.remove", ...at(n.ifaceChain) },
    { op: "nft.chain.remove", ...at(n.macChain) },
  ];
}

/** Installs the spoof check for a host port; fails with the reference's prefix. */
export async function setupSpoofCheck(
  firewall: Firewall,
  hostIface: string,
  mac: string,
  refId: string,
): Promise<void> {
  try {
    await firewall.apply(planSpoofCheckSetup(hostIface, mac, refId));
  } catch (err) {
    throw new Error(`failed to setup spoof-check: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Removes the spoof check; returns the failure text instead of throwing (DEL only logs it, §8.1 DEL step 4). */
export async function teardownSpoofCheck(firewall: Firewall, refId: string): Promise<string | undefined> {
  try {
    await firewall.apply(planSpoofCheckTeardown(refId));
    return undefined;
  } catch (err) {
    return `failed to teardown spoof-check: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * CHECK of the spoof check (CHK-3: broken firewall state fails CHECK). [DIFF] The
 * reference's bridge CHECK does not look at these rules; ours finds the base chain's jump
 * and the MAC chain's return for the recorded MAC and its drop. Returns the problem, or
 * undefined.
 */
export function checkSpoofCheck(
  table: readonly NftChainState[] | undefined,
  mac: string,
  refId: string,
): string | undefined {
  const n = spoofCheckNames(refId);
  const chain = (name: string) => table?.find((c) => c.name === name)?.rules ?? [];
  const has = (name: string, rule: (r: string) => boolean) =>
    chain(name).some((r) => r.comment === n.comment && rule(r.rule));
  if (!has(PREROUTING, (r) => r.endsWith(`jump ${n.ifaceChain}`)))
    return `spoof-check: no rule in bridge nat ${PREROUTING} jumps to ${n.ifaceChain}`;
  if (!has(n.ifaceChain, (r) => r === `jump ${n.macChain}`))
    return `spoof-check: chain ${n.ifaceChain} does not jump to ${n.macChain}`;
  if (
    !has(n.macChain, (r) => r === `ether saddr ${mac.toLowerCase()} return`) ||
    !has(n.macChain, (r) => r === "drop")
  ) {
    return `spoof-check: chain ${n.macChain} does not pass only ${mac.toLowerCase()}`;
  }
  return undefined;
}
