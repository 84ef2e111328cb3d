/**
 * The transactions lock.test.ts races: container `i`'s ADD as portmap lays it out (a
 * shared chain and the shared jump to it, then the container's own chain and the shared
 * chain's rule to it), for iptables or nftables, and what the table must hold after N of
 * them: one of each shared object and every container's rules. Test-only.
 */
import type { IptChainState, NftChainState } from "../firewall.ts";
import type { FirewallOp, FirewallTx } from "../ops.ts";

const SHARED = "CNI-HOSTPORT-DNAT";
const JUMP = ["-m", "addrtype", "--dst-type", "LOCAL", "-j", SHARED];
const T = { family: "ip", table: "race" } as const;

/** Container `i`'s ADD on `backend`. */
export function raceAdd(backend: "ipt" | "nft", i: number): FirewallTx {
  if (backend === "ipt") {
    const at = { family: 4, table: "nat" } as const;
    return [
      { op: "ipt.chain.ensure", ...at, chain: SHARED },
      { op: "ipt.rule.append", ...at, chain: "PREROUTING", rule: JUMP },
      { op: "ipt.chain.ensure", ...at, chain: `CNI-DN-${i}` },
      {
        op: "ipt.rule.append",
        ...at,
        chain: `CNI-DN-${i}`,
        rule: [
          "-p",
          "tcp",
          "-m",
          "tcp",
          "--dport",
          String(8000 + i),
          "-j",
          "DNAT",
          "--to-destination",
          `198.18.0.${i + 2}:80`,
        ],
      },
      {
        op: "ipt.rule.append",
        ...at,
        chain: SHARED,
        rule: ["-m", "comment", "--comment", `c${i}`, "-j", `CNI-DN-${i}`],
      },
    ];
  }
  const ops: FirewallOp[] = [
    { op: "nft.table.ensure", ...T },
    { op: "nft.chain.ensure", ...T, chain: "hostports" },
    {
      op: "nft.chain.ensure",
      ...T,
      chain: "prerouting",
      base: { type: "nat", hook: "prerouting", priority: "dstnat" },
    },
    // Delete-then-add keeps one copy, as the reference does it, but only when nobody adds in between.
    { op: "nft.rule.delete", ...T, chain: "prerouting", comment: "shared" },
    { op: "nft.rule.add", ...T, chain: "prerouting", rule: "fib daddr type local jump hostports", comment: "shared" },
    {
      op: "nft.rule.add",
      ...T,
      chain: "hostports",
      rule: `tcp dport ${8000 + i} dnat to 198.18.0.${i + 2}:80`,
      comment: `c${i}`,
    },
  ];
  return ops;
}

/** What N iptables ADDs must leave: one shared chain and jump, each container's chain and rules. */
export function iptRaceExpected(
  n: number,
  nat: readonly IptChainState[],
): { jumps: number; sharedRules: string[]; perContainer: number } {
  const rules = (name: string) => nat.find((c) => c.name === name)?.rules ?? [];
  return {
    jumps: rules("PREROUTING").filter((r) => r.join(" ") === JUMP.join(" ")).length,
    sharedRules: rules(SHARED)
      .map((r) => r.join(" "))
      .sort(),
    perContainer: Array.from({ length: n }, (_, i) => rules(`CNI-DN-${i}`).length).filter((l) => l === 1).length,
  };
}

/** The same for nftables: shared jump rules in prerouting, rules per container comment. */
export function nftRaceExpected(
  n: number,
  chains: readonly NftChainState[] | undefined,
): { jumps: number; perContainer: number } {
  const rules = (name: string) => chains?.find((c) => c.name === name)?.rules ?? [];
  return {
    jumps: rules("prerouting").filter((r) => r.comment === "shared").length,
    perContainer: Array.from(
      { length: n },
      (_, i) => rules("hostports").filter((r) => r.comment === `c${i}`).length,
    ).filter((l) => l === 1).length,
  };
}

/** The shared chain's rules after N clean ADDs, sorted. */
export function iptSharedRules(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `-m comment --comment c${i} -j CNI-DN-${i}`).sort();
}

export const RACE_NFT_TABLE = T;
