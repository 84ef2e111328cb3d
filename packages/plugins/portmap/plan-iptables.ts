/**
 * portmap's iptables plans (§8.5): ADD's transaction for one family, DEL's for the
 * families that work, and CHECK's comparison with what `iptables-save` shows. Pure:
 * config and reads in, operations or a problem out.
 */
import type { Family, FirewallOp, IptablesOp, IptChainState, IptRule } from "@tscni/firewall";
import type { IPNet } from "@tscni/spec/ipnet";
import type { PortmapConfig } from "./config.ts";
import {
  MASQ_CHAIN,
  MASQ_ENTRY_RULE,
  SETMARK_CHAIN,
  TOP_DNAT_CHAIN,
  TOP_ENTRY_RULE,
  dnatChain,
  dnatChainName,
  masqRule,
  oldSnatChainName,
  setMarkRule,
} from "./iptables-rules.ts";

/**
 * ADD for one family (`forwardPorts`): the mark and masquerade chains when `snat` and no
 * external mark chain, the top-level chain and its jumps, then the container's chain
 * with its rules and its entry rules. Every step is idempotent, as the reference's
 * EnsureChain and InsertUnique are, so ADD again changes nothing.
 */
export function planIptablesAdd(conf: PortmapConfig, containerID: string, container: IPNet): FirewallOp[] {
  const family: Family = container.ip.family;
  const t = { family, table: "nat" } as const;
  const ops: FirewallOp[] = [];
  if (conf.snat && conf.externalSetMarkChain === undefined) {
    ops.push({ op: "ipt.chain.ensure", ...t, chain: SETMARK_CHAIN });
    ops.push({ op: "ipt.rule.append", ...t, chain: SETMARK_CHAIN, rule: setMarkRule(conf.markMasqBit) });
    ops.push({ op: "ipt.chain.ensure", ...t, chain: MASQ_CHAIN });
    ops.push({ op: "ipt.rule.append", ...t, chain: MASQ_CHAIN, rule: masqRule(conf.markMasqBit) });
    // Prepended: the bridge and ptp masquerade rules appended later must not stomp on it.
    ops.push({ op: "ipt.rule.insert", ...t, chain: "POSTROUTING", rule: MASQ_ENTRY_RULE });
  }
  ops.push({ op: "ipt.chain.ensure", ...t, chain: TOP_DNAT_CHAIN });
  for (const entry of ["PREROUTING", "OUTPUT"])
    ops.push({ op: "ipt.rule.append", ...t, chain: entry, rule: TOP_ENTRY_RULE });
  const dn = dnatChain(conf, containerID, container);
  // The container's own chain is new on a first ADD: the backend may then skip reading nat.
  ops.push({ op: "ipt.chain.ensure", ...t, chain: dn.name, fresh: true });
  for (const rule of dn.rules) ops.push({ op: "ipt.rule.append", ...t, chain: dn.name, rule });
  for (const rule of dn.entryRules) ops.push({ op: "ipt.rule.append", ...t, chain: TOP_DNAT_CHAIN, rule });
  return ops;
}

/**
 * DEL for the given families (`unforwardPorts`): remove the container's chain and the
 * legacy `CNI-SN-` chain, each with every jump to it. Removing a chain that is not there
 * is no change, so the firewall writes nothing for a container already gone (DEL-3).
 * When the container's address of a family is known, ADD made its chain and the entry
 * rules jumping to it from the mappings, so those are marked `present` and the backend
 * may delete them without reading nat first (render-ipt-optimistic.ts); the `CNI-SN-`
 * chain is then proven absent in the same restore, or the backend reads and removes it.
 */
export function planIptablesDel(conf: PortmapConfig, containerID: string, families: readonly Family[]): IptablesOp[] {
  return families.flatMap((family): IptablesOp[] => {
    const t = { family, table: "nat" } as const;
    const net = family === 4 ? conf.containerV4 : conf.containerV6;
    const entries: IptablesOp[] =
      net === undefined
        ? []
        : dnatChain(conf, containerID, net).entryRules.map((rule) => ({
            op: "ipt.rule.delete",
            ...t,
            chain: TOP_DNAT_CHAIN,
            rule,
            present: true,
          }));
    return [
      ...entries,
      { op: "ipt.chain.remove", ...t, chain: dnatChainName(conf.name, containerID), ...(net && { present: true }) },
      { op: "ipt.chain.remove", ...t, chain: oldSnatChainName(conf.name, containerID) },
    ];
  });
}

const sameRule = (a: IptRule, b: IptRule): boolean => a.length === b.length && a.every((t, i) => t === b[i]);
/** Go's `%s` of a `[][]string`: `[[-p tcp ...] [...]]`. */
const goRules = (rules: readonly IptRule[]): string => `[${rules.map((r) => `[${r.join(" ")}]`).join(" ")}]`;

/**
 * CHECK for one family (`chain.check`): the container's chain exists, holds each planned
 * rule, and each entry rule is in CNI-HOSTPORT-DNAT. Returns the problem, or undefined.
 */
export function checkIptables(
  conf: PortmapConfig,
  containerID: string,
  container: IPNet,
  chains: readonly IptChainState[],
): string | undefined {
  const dn = dnatChain(conf, containerID, container);
  const own = chains.find((c) => c.name === dn.name);
  if (own === undefined) return `chain ${dn.name} not found in iptables table nat`;
  // The reference walks the rules from the last, so the message names the same set either way.
  for (const rule of [...dn.rules].reverse()) {
    if (!own.rules.some((r) => sameRule(r, rule)))
      return `rule ${goRules(dn.rules)} in chain ${dn.name} not found in table nat`;
  }
  const top = chains.find((c) => c.name === TOP_DNAT_CHAIN)?.rules ?? [];
  for (const rule of [...dn.entryRules].reverse()) {
    if (!top.some((r) => sameRule(r, rule)))
      return `rule ${goRules(dn.entryRules.map((r) => r.slice(0, -2)))} in chain ${TOP_DNAT_CHAIN} not found in table nat`;
  }
  return undefined;
}
