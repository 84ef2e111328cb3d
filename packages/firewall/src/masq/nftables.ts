/**
 * The nftables form of ipMasq (SPEC H-3), what the reference's
 * `pkg/ip/ipmasq_nftables_linux.go` makes: the inet table `cni_plugins_masquerade` with a
 * regular chain `masq_checks` holding one rule per container address, and a `postrouting`
 * nat chain (srcnat) that returns for multicast and otherwise goes to `masq_checks`.
 * A container's rules are found by their comment, which starts with
 * `<hash16(net)>-<hash16(ifname:cid)>`: that hash, not the address, decides what DEL
 * removes, so an address reused by another container keeps that container's rule.
 * Rule text is as `nft list` prints it, so a read compares with what we wrote.
 */
import { formatIP, network, type IPNet } from "@tscni/spec/ipnet";
import { nftMasqComment, nftMasqInstanceHash } from "../names.ts";
import type { NftOp } from "../ops.ts";

/** The reference's table (`ipMasqTableName`), shared by every network and container. */
export const MASQ_TABLE = "cni_plugins_masquerade";
/** The chain with one rule per masqueraded address (`ipMasqChainName`). */
export const MASQ_CHAIN = "masq_checks";
/** The base chain hooked at postrouting. */
export const MASQ_POSTROUTING = "postrouting";

const TABLE_COMMENT = "Masquerading for plugins from github.com/containernetworking/plugins";
const CHAIN_COMMENT = "Masquerade traffic from certain IPs to any (non-multicast) IP outside their subnet";

/** The postrouting chain's rules, rewritten on every setup (the reference flushes and re-adds them). */
export const MASQ_POSTROUTING_RULES: readonly string[] = [
  "ip daddr 224.0.0.0/4 return",
  "ip6 daddr ff00::/8 return",
  `goto ${MASQ_CHAIN}`,
];

/** One address's rule: from the address, to anything outside its subnet, masquerade. */
export function nftMasqRule(ipn: IPNet): string {
  const ip = ipn.ip.family === 4 ? "ip" : "ip6";
  const dst = network(ipn);
  return `${ip} saddr ${formatIP(ipn.ip)} ${ip} daddr != ${formatIP(dst.ip)}/${dst.prefix} masquerade`;
}

const at = { family: "inet", table: MASQ_TABLE } as const;

/**
 * The transaction of setupIPMasqNFTables: ensure the table and chains, rewrite
 * `postrouting`, drop this instance's stale rules (a repeated ADD replaces, never
 * duplicates) and add one rule per address.
 */
export function nftMasqSetup(ips: readonly IPNet[], net: string, ifName: string, cid: string): NftOp[] {
  const comment = nftMasqComment(net, ifName, cid);
  return [
    { op: "nft.table.ensure", ...at, comment: TABLE_COMMENT },
    { op: "nft.chain.ensure", ...at, chain: MASQ_CHAIN, comment: CHAIN_COMMENT },
    // After masq_checks exists, so that the goto resolves.
    {
      op: "nft.chain.ensure",
      ...at,
      chain: MASQ_POSTROUTING,
      base: { type: "nat", hook: "postrouting", priority: "srcnat" },
    },
    { op: "nft.chain.flush", ...at, chain: MASQ_POSTROUTING },
    ...MASQ_POSTROUTING_RULES.map((rule): NftOp => ({ op: "nft.rule.add", ...at, chain: MASQ_POSTROUTING, rule })),
    { op: "nft.rule.delete", ...at, chain: MASQ_CHAIN, commentPrefix: nftMasqInstanceHash(net, ifName, cid) },
    ...ips.map((ipn): NftOp => ({ op: "nft.rule.add", ...at, chain: MASQ_CHAIN, rule: nftMasqRule(ipn), comment })),
  ];
}

/**
 * The transaction of teardownIPMasqNFTables: delete this instance's rules, found by the
 * hash prefix of their comment; the addresses play no part. A missing table is fine.
 */
export function nftMasqTeardown(net: string, ifName: string, cid: string): NftOp[] {
  return [{ op: "nft.rule.delete", ...at, chain: MASQ_CHAIN, commentPrefix: nftMasqInstanceHash(net, ifName, cid) }];
}
