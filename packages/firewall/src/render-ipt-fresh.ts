/**
 * The read-free `iptables-restore --noflush` input for an ADD whose own chains are new
 * (ops.ts IptChainEnsure.fresh): `-N` each fresh chain, `-A`/`-I` its rules and the rules
 * that jump to it (none can exist while the chain does not), and `-C` for every other
 * rule the transaction wants (shared chains and entry jumps, AppendUnique), all in one
 * block per table. The kernel applies the block whole or not at all: a fresh chain that
 * exists already (an ADD again) or a shared rule that is missing (the first ADD on a
 * node, or someone deleted it) fails it, and the backend then reads and renders the
 * difference as usual. So an ADD costs one process whatever the table holds, where a
 * read grows with the table (docs/PERFORMANCE.md "portmap"). Also returns the input that
 * takes exactly this change back (for the undo of a later failed family).
 */
import { isBuiltinChain, jumpTarget } from "./builtins.ts";
import { formatIptRule } from "./ipt-tokens.ts";
import type { Family, IptablesOp, IptRule } from "./ops.ts";
import { iptTablesOf } from "./render-ipt.ts";

const same = (a: IptRule, b: IptRule): boolean => a.length === b.length && a.every((t, i) => t === b[i]);

/** The restore input and its undo, or undefined when the operations need a read. */
export function renderIptFresh(
  ops: readonly IptablesOp[],
  family: Family,
): { input: string; undo: string } | undefined {
  const mine = ops.filter((o) => o.family === family);
  if (mine.length === 0 || !mine.some((o) => o.op === "ipt.chain.ensure" && o.fresh)) return undefined;
  const blocks: string[] = [];
  const undoBlocks: string[] = [];
  for (const table of iptTablesOf(mine, family)) {
    const fresh = new Set(
      mine.filter((o) => o.table === table && o.op === "ipt.chain.ensure" && o.fresh).map((o) => o.chain),
    );
    const made = new Map<string, IptRule[]>();
    const added = new Map<string, IptRule[]>();
    const checked = new Map<string, IptRule[]>();
    const proven = new Set<string>();
    const needProof = new Set<string>();
    const lines: string[] = [];
    for (const op of mine.filter((o) => o.table === table)) {
      if (op.op !== "ipt.chain.ensure" && op.op !== "ipt.rule.append" && op.op !== "ipt.rule.insert") return undefined;
      if (op.op === "ipt.chain.ensure") {
        if (fresh.has(op.chain)) {
          if (!made.has(op.chain)) lines.push(`-N ${op.chain}`);
          made.set(op.chain, made.get(op.chain) ?? []);
        } else if (!isBuiltinChain(table, op.chain)) needProof.add(op.chain);
        continue;
      }
      const target = jumpTarget(op.rule);
      // The rules this transaction writes into a chain: its own new chain, or a jump to one.
      const writes = fresh.has(op.chain) || (target !== undefined && fresh.has(target));
      const seen = writes ? (fresh.has(op.chain) ? made : added) : checked;
      const list = seen.get(op.chain) ?? [];
      if (list.some((r) => same(r, op.rule))) continue;
      seen.set(op.chain, op.op === "ipt.rule.append" ? [...list, [...op.rule]] : [[...op.rule], ...list]);
      if (!writes) lines.push(`-C ${op.chain} ${formatIptRule(op.rule)}`);
      else
        lines.push(
          op.op === "ipt.rule.append"
            ? `-A ${op.chain} ${formatIptRule(op.rule)}`
            : `-I ${op.chain} 1 ${formatIptRule(op.rule)}`,
        );
      // A rule in a chain (checked or written) proves the chain exists, a checked jump its target.
      proven.add(op.chain);
      if (!writes && target !== undefined) proven.add(target);
    }
    // A shared chain the transaction ensures but nothing here proves present: read instead.
    for (const c of needProof) if (!proven.has(c)) return undefined;
    blocks.push(`*${table}`, ...lines, "COMMIT");
    const undo = [
      ...[...added].flatMap(([chain, rules]) => rules.map((r) => `-D ${chain} ${formatIptRule(r)}`)),
      ...[...made].flatMap(([chain, rules]) => [...(rules.length > 0 ? [`-F ${chain}`] : []), `-X ${chain}`]),
    ];
    undoBlocks.push(`*${table}`, ...undo, "COMMIT");
  }
  return { input: `${blocks.join("\n")}\n`, undo: `${undoBlocks.join("\n")}\n` };
}
