/**
 * The firewall plugin's plans (pure): config + prevResult -> one {@link FirewallTx} for
 * ADD and one for DEL, and the CHECK of what `iptables-save` shows against what ADD
 * writes. Same operations, in the same order, as the reference's go-iptables calls
 * (`iptables.go`, `ingresspolicy.go`), so the rule sets are identical.
 */
import type { Family, FirewallOp, FirewallTx, IptChainState, IptRule } from "@tscni/firewall";
import type { IngressPolicy } from "./config.ts";
import {
  FORWARD_CHAIN,
  STAGE1_CHAIN,
  STAGE2_CHAIN,
  adminJumpRule,
  containerRules,
  forwardJumpRule,
  goRule,
  isolationRules,
  type HostIp,
} from "./rules.ts";

const FAMILIES: readonly Family[] = [4, 6];

/** The families present among the addresses, in 4, 6 order. */
export function familiesOf(ips: readonly HostIp[]): Family[] {
  return FAMILIES.filter((f) => ips.some((ip) => ip.family === f));
}

/**
 * iptables backend ADD (`addRules`) for each family with addresses: the CNI-FORWARD and
 * admin chains, FORWARD's jump to CNI-FORWARD and CNI-FORWARD's jump to the admin chain
 * inserted first unless present, then each address's two rules appended unless present.
 */
export function planForwardAdd(adminChain: string, ips: readonly HostIp[]): FirewallOp[] {
  const ops: FirewallOp[] = [];
  for (const family of familiesOf(ips)) {
    const t = { family, table: "filter" } as const;
    ops.push({ op: "ipt.chain.ensure", ...t, chain: FORWARD_CHAIN });
    ops.push({ op: "ipt.chain.ensure", ...t, chain: adminChain });
    ops.push({ op: "ipt.rule.insert", ...t, chain: "FORWARD", rule: forwardJumpRule() });
    ops.push({ op: "ipt.rule.insert", ...t, chain: FORWARD_CHAIN, rule: adminJumpRule(adminChain) });
    for (const ip of ips.filter((x) => x.family === family)) {
      for (const rule of containerRules(ip.cidr)) ops.push({ op: "ipt.rule.append", ...t, chain: FORWARD_CHAIN, rule });
    }
  }
  return ops;
}

/**
 * iptables backend DEL (`delRules`): each address's rules deleted from CNI-FORWARD. The
 * chains, the jumps and the admin chain stay: other containers share them. ADD appended
 * each rule once, so they are marked `present`: the backend deletes them without reading
 * filter first and reads only when one is gone (render-ipt-optimistic.ts).
 */
export function planForwardDel(ips: readonly HostIp[]): FirewallOp[] {
  return ips.flatMap((ip) =>
    containerRules(ip.cidr).map(
      (rule): FirewallOp => ({
        op: "ipt.rule.delete",
        family: ip.family,
        table: "filter",
        chain: FORWARD_CHAIN,
        rule,
        present: true,
      }),
    ),
  );
}

/**
 * `setupIsolationChains` for `same-bridge` / `isolated`, per family of the addresses
 * (`findProtos`): both stage chains, FORWARD's jump to stage 1 inserted first (so it runs
 * before the CNI-FORWARD accepts), the bridge rules inserted first and the RETURNs
 * appended, each unless present. Nothing for `open`. DEL never removes them (the bridge
 * may still have containers), as the reference.
 */
export function planIsolation(policy: IngressPolicy, bridge: string, families: readonly Family[]): FirewallOp[] {
  if (policy === "open") return [];
  const r = isolationRules(bridge, policy === "isolated");
  const ops: FirewallOp[] = [];
  for (const family of families) {
    const t = { family, table: "filter" } as const;
    ops.push({ op: "ipt.chain.ensure", ...t, chain: STAGE1_CHAIN });
    ops.push({ op: "ipt.chain.ensure", ...t, chain: STAGE2_CHAIN });
    ops.push({ op: "ipt.rule.insert", ...t, chain: "FORWARD", rule: r.forwardJump });
    for (const rule of r.stage1Insert) ops.push({ op: "ipt.rule.insert", ...t, chain: STAGE1_CHAIN, rule });
    ops.push({ op: "ipt.rule.append", ...t, chain: STAGE1_CHAIN, rule: r.stage1Return });
    ops.push({ op: "ipt.rule.insert", ...t, chain: STAGE2_CHAIN, rule: r.stage2Drop });
    ops.push({ op: "ipt.rule.append", ...t, chain: STAGE2_CHAIN, rule: r.stage2Return });
  }
  return ops;
}

/** Equal rule token lists. */
export function sameRule(a: IptRule, b: IptRule): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

const has = (chains: readonly IptChainState[] | undefined, chain: string, rule: IptRule): boolean =>
  (chains ?? []).some((c) => c.name === chain && c.rules.some((r) => sameRule(r, rule)));

/**
 * iptables backend CHECK (`checkRules`) over one family's filter table as read: the
 * FORWARD jump, the admin jump, then every address rule, with the reference's messages.
 * Returns the first problem, or undefined. [DIFF] The reference's CHECK first creates the
 * two chains when missing (EnsureChain); ours reads only: a CHECK changes nothing.
 */
export function checkForward(
  adminChain: string,
  ips: readonly HostIp[],
  filter: readonly IptChainState[] | undefined,
): string | undefined {
  if (ips.length === 0) return undefined;
  const fwd = forwardJumpRule();
  if (!has(filter, "FORWARD", fwd)) return `expected FORWARD rule ${goRule(fwd)} not found`;
  const admin = adminJumpRule(adminChain);
  if (!has(filter, FORWARD_CHAIN, admin)) return `expected ${FORWARD_CHAIN} rule ${goRule(admin)} not found`;
  for (const ip of ips) {
    for (const rule of containerRules(ip.cidr))
      if (!has(filter, FORWARD_CHAIN, rule)) return `expected rule ${goRule(rule)} not found`;
  }
  return undefined;
}

/** A whole transaction: ADD's forward rules (when the backend is iptables) then the isolation. */
export function planAdd(opts: {
  iptables: boolean;
  adminChain: string;
  ips: readonly HostIp[];
  policy: IngressPolicy;
  bridge: string;
}): FirewallTx {
  const forward = opts.iptables ? planForwardAdd(opts.adminChain, opts.ips) : [];
  return [...forward, ...planIsolation(opts.policy, opts.bridge, familiesOf(opts.ips))];
}
