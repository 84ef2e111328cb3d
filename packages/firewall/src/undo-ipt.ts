/**
 * The `iptables-restore` lines that take one table back from `after` to `before`, exactly
 * (rule positions included), for the chains that differ: used when a later part of a
 * transaction fails (another family, or nftables) after a family's restore committed, so
 * no half-applied change stays. Rules are deleted by number and re-inserted at their old
 * position, so rules others added meanwhile are kept, not flushed.
 */
import type { IptChainState } from "./firewall.ts";
import { formatIptRule } from "./ipt-tokens.ts";
import type { IptRule } from "./ops.ts";

const same = (a: IptRule, b: IptRule): boolean => a.length === b.length && a.every((t, i) => t === b[i]);

/** Lines for one chain that existed before: delete what is new, re-insert what is gone. */
function chainLines(chain: string, before: readonly IptRule[], now: readonly IptRule[]): string[] {
  const matched = new Set<number>();
  const drop: number[] = [];
  let j = 0;
  now.forEach((rule, i) => {
    let k = j;
    while (k < before.length && !same(before[k] as IptRule, rule)) k++;
    if (k < before.length) {
      matched.add(k);
      j = k + 1;
    } else {
      drop.push(i);
    }
  });
  const out = drop.reverse().map((i) => `-D ${chain} ${i + 1}`);
  before.forEach((rule, k) => {
    if (!matched.has(k)) out.push(`-I ${chain} ${k + 1} ${formatIptRule(rule)}`);
  });
  return out;
}

/** The body (between `*table` and `COMMIT`) that restores `before`; empty when nothing differs. */
export function renderIptUndo(before: readonly IptChainState[], after: readonly IptChainState[]): string[] {
  const was = new Map(before.map((c) => [c.name, c.rules]));
  const now = new Map(after.map((c) => [c.name, c.rules]));
  const create = [...was.keys()].filter((c) => !now.has(c)).map((c) => `-N ${c}`);
  const fix = [...was].flatMap(([c, rules]) => chainLines(c, rules, now.get(c) ?? []));
  const extra = [...now.keys()].filter((c) => !was.has(c));
  // New chains go last: first flushed (they may jump to each other), then deleted.
  const remove = [
    ...extra.filter((c) => (now.get(c) ?? []).length > 0).map((c) => `-F ${c}`),
    ...extra.map((c) => `-X ${c}`),
  ];
  return [...create, ...fix, ...remove];
}
