/**
 * The operations that take an iptables table back from `after` to `before`, for the
 * chains that differ: used when a later part of a transaction fails (another family, or
 * nftables) after a family's restore already committed, so no half-applied change stays.
 * Rule positions are restored only approximately (re-added rules are appended).
 */
import type { IptChainState } from "./firewall.ts";
import type { Family, IptablesOp, IptRule, IptTable } from "./ops.ts";

const key = (r: IptRule): string => JSON.stringify(r);

/** The undo operations for one table of one family. */
export function undoIptOps(family: Family, table: IptTable, before: readonly IptChainState[], after: readonly IptChainState[]): IptablesOp[] {
  const was = new Map(before.map((c) => [c.name, c.rules]));
  const now = new Map(after.map((c) => [c.name, c.rules]));
  const at = { family, table };
  const ensure: IptablesOp[] = [];
  const rules: IptablesOp[] = [];
  const remove: IptablesOp[] = [];
  for (const [chain, old] of was) {
    const cur = now.get(chain);
    if (cur === undefined) ensure.push({ op: "ipt.chain.ensure", ...at, chain });
    const curKeys = new Set((cur ?? []).map(key));
    const oldKeys = new Set(old.map(key));
    for (const r of cur ?? []) if (!oldKeys.has(key(r))) rules.push({ op: "ipt.rule.delete", ...at, chain, rule: r });
    for (const r of old) if (!curKeys.has(key(r))) rules.push({ op: "ipt.rule.append", ...at, chain, rule: r });
  }
  for (const chain of now.keys()) if (!was.has(chain)) remove.push({ op: "ipt.chain.remove", ...at, chain });
  return [...ensure, ...rules, ...remove];
}
