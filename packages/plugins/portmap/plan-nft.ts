/**
 * portmap's nftables plans (§8.5 "nftables rule layout", portmap_nftables.go): table
 * `cni_hostport` in the `ip` and `ip6` families, one rule per mapping and per masquerade
 * source, each commented with the container ID so DEL finds exactly this container's.
 * Rule text is what `nft list` prints back. Pure.
 */
import type { FirewallOp, NftChainState, NftFamily } from "@tscni/firewall";
import { type IPNet, formatAddr, parseIP } from "@tscni/spec/ipnet";
import type { PortmapConfig } from "./config.ts";

/** The reference's table, in both `ip` and `ip6`. */
export const NFT_TABLE = "cni_hostport";
/** Holds every DNAT rule. */
export const HOSTPORTS = "hostports";
/** Used by older releases for rules with a hostIP; kept so upgrades stay transparent. */
export const HOSTIP_HOSTPORTS = "hostip_hostports";
/** Jumps to both of the above. */
export const HOSTPORTS_ALL = "hostports_all";
/** The srcnat base chain of the hairpin and localhost masquerade. */
export const MASQUERADING = "masquerading";

const nftFamily = (family: 4 | 6): NftFamily => (family === 6 ? "ip6" : "ip");

/**
 * ADD for one family (`forwardPorts`), one nft transaction: the table and its chains, the
 * prerouting and output chains flushed and rewritten with the current conditions (so the
 * latest conditions apply table-wide), the DNAT rules, then the masquerade rules.
 */
export function planNftAdd(conf: PortmapConfig, containerID: string, container: IPNet): FirewallOp[] {
  const family = container.ip.family;
  const t = { family: nftFamily(family), table: NFT_TABLE } as const;
  const ipX = t.family;
  const conditions = (family === 6 ? conf.conditionsV6 : conf.conditionsV4).join(" ");
  const ops: FirewallOp[] = [
    { op: "nft.table.ensure", ...t, comment: "CNI portmap plugin" },
    { op: "nft.chain.ensure", ...t, chain: HOSTPORTS },
    { op: "nft.chain.ensure", ...t, chain: HOSTIP_HOSTPORTS },
    { op: "nft.chain.ensure", ...t, chain: HOSTPORTS_ALL },
    { op: "nft.chain.flush", ...t, chain: HOSTPORTS_ALL },
    { op: "nft.rule.add", ...t, chain: HOSTPORTS_ALL, rule: `jump ${HOSTIP_HOSTPORTS}` },
    { op: "nft.rule.add", ...t, chain: HOSTPORTS_ALL, rule: `jump ${HOSTPORTS}` },
  ];
  // dstnat is -100; nft before 1.0.7 accepts the name only on the prerouting hook, so the
  // output chain says -100 (the same priority, as the reference's knftables means it).
  for (const [chain, priority] of [
    ["prerouting", "dstnat"],
    ["output", -100],
  ] as const) {
    ops.push({ op: "nft.chain.ensure", ...t, chain, base: { type: "nat", hook: chain, priority } });
    ops.push({ op: "nft.chain.flush", ...t, chain });
    ops.push({
      op: "nft.rule.add",
      ...t,
      chain,
      rule: `${conditions === "" ? "" : `${conditions} `}fib daddr type local jump ${HOSTPORTS_ALL}`,
    });
  }
  if (conf.snat)
    ops.push({
      op: "nft.chain.ensure",
      ...t,
      chain: MASQUERADING,
      base: { type: "nat", hook: "postrouting", priority: "srcnat" },
    });
  // [DIFF] The reference adds the rules again on a repeated ADD; we first drop this
  // container's own rules in the same transaction, so ADD again leaves one copy.
  for (const chain of [HOSTPORTS, MASQUERADING]) ops.push({ op: "nft.rule.delete", ...t, chain, comment: containerID });
  const ip = formatAddr(container.ip);
  const to = family === 6 ? `[${ip}]` : ip;
  for (const m of conf.portMappings) {
    let daddr = "";
    if (m.hostIP !== "") {
      const host = parseIP(m.hostIP);
      // Go's net.ParseIP: an unparsable address counts as IPv6; other-family host IPs are skipped.
      if ((host?.family ?? 6) !== family) continue;
      // 0.0.0.0 and :: mean any (§8.5 ADD 6); new rules go to hostports, never hostip_hostports.
      if (host === undefined || host.value !== 0n)
        daddr = `${ipX} daddr ${host === undefined ? m.hostIP : formatAddr(host)} `;
    }
    ops.push({
      op: "nft.rule.add",
      ...t,
      chain: HOSTPORTS,
      rule: `${daddr}${m.protocol} dport ${m.hostPort} dnat to ${to}:${m.containerPort}`,
      comment: containerID,
    });
  }
  if (conf.snat) {
    const src = conf.masqAll ? (family === 6 ? "::/0" : "0.0.0.0/0") : ip;
    ops.push({
      op: "nft.rule.add",
      ...t,
      chain: MASQUERADING,
      rule: `${ipX} saddr ${src} ${ipX} daddr ${ip} masquerade`,
      comment: containerID,
    });
    // With masqAll, 0.0.0.0/0 already covers localhost.
    if (family === 4 && !conf.masqAll)
      ops.push({
        op: "nft.rule.add",
        ...t,
        chain: MASQUERADING,
        rule: `ip saddr 127.0.0.1 ip daddr ${ip} masquerade`,
        comment: containerID,
      });
  }
  return ops;
}

/** The chains DEL clears of the container's rules. */
const DEL_CHAINS = [HOSTPORTS, HOSTIP_HOSTPORTS, MASQUERADING];

/**
 * DEL (`unforwardPorts`): every rule commented with the container ID in hostports,
 * hostip_hostports and masquerading, in both families. Only tables and chains that exist
 * and hold such a rule get an operation, so a second DEL touches nothing (DEL-3).
 */
export function planNftDel(
  containerID: string,
  tables: ReadonlyMap<NftFamily, readonly NftChainState[]>,
): FirewallOp[] {
  const ops: FirewallOp[] = [];
  for (const [family, chains] of tables) {
    for (const chain of chains) {
      if (!DEL_CHAINS.includes(chain.name) || !chain.rules.some((r) => r.comment === containerID)) continue;
      ops.push({ op: "nft.rule.delete", family, table: NFT_TABLE, chain: chain.name, comment: containerID });
    }
  }
  return ops;
}

/**
 * CHECK for one family (`checkPorts`): at least as many rules commented with the container
 * ID as mappings of this family in hostports, and as masquerade rules in masquerading.
 */
export function checkNft(
  conf: PortmapConfig,
  containerID: string,
  family: 4 | 6,
  chains: readonly NftChainState[] | undefined,
): string | undefined {
  // The reference counts every mapping whose hostIP is not of the other family (0.0.0.0 included).
  const hostPorts = conf.portMappings.filter(
    (m) => m.hostIP === "" || (parseIP(m.hostIP)?.family ?? 6) === family,
  ).length;
  const masq = !conf.snat ? 0 : family === 4 && !conf.masqAll ? 2 : 1;
  for (const [chain, want] of [
    [HOSTPORTS, hostPorts],
    [MASQUERADING, masq],
  ] as const) {
    if (want === 0) continue;
    const rules = chains?.find((c) => c.name === chain)?.rules;
    // knftables' ListRules fails on a missing table or chain; the reference returns that error.
    if (rules === undefined)
      return `could not list rules of chain "${chain}" in table ${nftFamily(family)} ${NFT_TABLE}: not found`;
    if (rules.filter((r) => r.comment === containerID).length < want)
      return `missing hostport rules in "${chain}" chain`;
  }
  return undefined;
}
