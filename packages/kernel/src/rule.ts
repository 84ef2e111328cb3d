/**
 * Policy routing rules (`ip rule`) in the kernel seam: the `rule.add` / `rule.del` ops,
 * the {@link RuleInfo} reads return, and each op as the one `ip rule` line it amounts to.
 * The sbr plugin (issue 12 item 3) adds a rule `from <address> lookup <table>` per
 * address. Pure.
 */
import type { Netns } from "./ops.ts";

/** Add or delete a policy routing rule; only the selectors given are sent. */
export interface RuleOp {
  op: "rule.add" | "rule.del";
  ns: Netns;
  /** Needed when neither `from` nor `to` names the family; else it must agree with them. */
  family?: 4 | 6;
  /** The rule's preference; the kernel picks one (just below the lowest non-zero one) when absent. */
  priority?: number;
  /** Source prefix selector (`198.18.0.5/32`). */
  from?: string;
  /** Destination prefix selector. */
  to?: string;
  /** Incoming / outgoing interface selectors, by name. */
  iif?: string;
  oif?: string;
  /** The table to look up (`rule.add` requires it: the action is always `lookup`). */
  table?: number;
}

/** A rule as read from a namespace (`ip rule show`, both families unless asked for one). */
export interface RuleInfo {
  family: 4 | 6;
  priority: number;
  /** Source / destination prefixes as `ip rule` prints them: absent means `all`. */
  from?: string;
  to?: string;
  iif?: string;
  oif?: string;
  /** The table of a `lookup` rule (255 local, 254 main, 253 default). */
  table: number;
}

/** The family of a rule op: its prefixes', else `family`, else IPv4 as iproute2 defaults. */
export function ruleFamily(op: Pick<RuleOp, "family" | "from" | "to">): 4 | 6 {
  const prefix = op.from ?? op.to;
  if (prefix !== undefined) return prefix.includes(":") ? 6 : 4;
  return op.family ?? 4;
}

/**
 * The `ip rule` line of an op (without `ip`; an IPv6 rule needs `ip -6`, so its
 * segment runs under `ip -6 -batch -`). `tok` refuses a value that would break the line.
 */
export function ruleLine(op: RuleOp, tok: (v: string | number) => string): string {
  const w = [op.op === "rule.add" ? "rule add" : "rule del"];
  if (op.priority !== undefined) w.push("priority", tok(op.priority));
  if (op.from !== undefined) w.push("from", tok(op.from));
  if (op.to !== undefined) w.push("to", tok(op.to));
  if (op.iif !== undefined) w.push("iif", tok(op.iif));
  if (op.oif !== undefined) w.push("oif", tok(op.oif));
  if (op.table !== undefined) w.push("lookup", tok(op.table));
  return w.join(" ");
}

/** True when a read rule is one of the kernel's own (`local`, `main`, `default` at their usual preferences). */
export function isDefaultRule(r: RuleInfo): boolean {
  const plain = r.from === undefined && r.to === undefined && r.iif === undefined && r.oif === undefined;
  return (
    plain &&
    ((r.priority === 0 && r.table === 255) ||
      (r.priority === 32766 && r.table === 254) ||
      (r.priority === 32767 && r.table === 253))
  );
}
