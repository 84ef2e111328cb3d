/**
 * iptables operations interpreted as the kernel (through iptables-restore) would: a rule
 * needs its chain and its jump target, a built-in chain cannot be made or removed, and a
 * chain is removed only after every rule jumping to it (ipt.chain.remove does that first).
 */
import { isBuiltinChain, jumpTarget } from "../builtins.ts";
import { FirewallError } from "../firewall.ts";
import { IPT_COMMENT_MAX } from "../names.ts";
import type { IptablesOp, IptRule } from "../ops.ts";
import { type FakeIptTable, type FakeState, iptTable } from "./state.ts";

/** True when two rules have the same tokens. */
export const sameRule = (a: IptRule, b: IptRule): boolean => a.length === b.length && a.every((t, i) => t === b[i]);

function where(op: IptablesOp): string {
  return `chain "${op.chain}" in table ${op.table} (IPv${op.family})`;
}

function needChain(t: FakeIptTable, op: IptablesOp): IptRule[] {
  const rules = t.get(op.chain);
  if (rules === undefined) throw new FirewallError(`iptables: no ${where(op)}`);
  return rules;
}

function needTarget(t: FakeIptTable, op: IptablesOp, rule: IptRule): void {
  const target = jumpTarget(rule);
  if (target !== undefined && !t.has(target)) {
    throw new FirewallError(`iptables: rule in ${where(op)} jumps to missing chain "${target}"`);
  }
}

/** Applies one iptables operation to `state` in place; throws {@link FirewallError} as the kernel refuses. */
export function applyIptOp(state: FakeState, op: IptablesOp): void {
  const t = iptTable(state, op.family, op.table);
  switch (op.op) {
    case "ipt.chain.ensure":
      if (!t.has(op.chain)) t.set(op.chain, []);
      return;
    case "ipt.chain.flush": {
      if (t.has(op.chain)) t.set(op.chain, []);
      return;
    }
    case "ipt.chain.remove": {
      if (!t.has(op.chain)) return;
      if (isBuiltinChain(op.table, op.chain)) throw new FirewallError(`iptables: cannot remove built-in ${where(op)}`);
      for (const [name, rules] of t)
        t.set(
          name,
          rules.filter((r) => jumpTarget(r) !== op.chain),
        );
      t.delete(op.chain);
      return;
    }
    case "ipt.rule.append":
    case "ipt.rule.insert": {
      const rules = needChain(t, op);
      needTarget(t, op, op.rule);
      const comment = op.rule[op.rule.indexOf("--comment") + 1];
      if (op.rule.includes("--comment") && new TextEncoder().encode(comment).length > IPT_COMMENT_MAX) {
        throw new FirewallError(`iptables: comment in ${where(op)} is longer than ${IPT_COMMENT_MAX} bytes`);
      }
      if (rules.some((r) => sameRule(r, op.rule))) return;
      if (op.op === "ipt.rule.append") rules.push([...op.rule]);
      else rules.unshift([...op.rule]);
      return;
    }
    case "ipt.rule.delete": {
      const rules = t.get(op.chain);
      if (rules !== undefined)
        t.set(
          op.chain,
          rules.filter((r) => !sameRule(r, op.rule)),
        );
      return;
    }
  }
}
