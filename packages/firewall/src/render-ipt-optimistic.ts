/**
 * The read-free `iptables-restore --noflush` input for a DEL whose rules and chains the
 * attachment's ADD made (ops.ts `present`): `-D` each rule expected there, `-F` and `-X`
 * each chain expected there, and `-N` then `-X` each chain expected gone (the only way a
 * restore can prove a chain absent: `-N` fails when it exists). A delete not marked
 * `present` is left out only when it jumps to a chain the transaction removes, since its
 * presence then fails that `-X`. The kernel applies each block whole or not at all, so
 * when any guess is wrong (a rule or chain already gone, a jump we did not know of) the
 * restore fails, nothing changed, and the backend reads and renders the difference as
 * usual: DEL stays idempotent and best-effort (DEL-3, H-3, 8.5) and, in the common case,
 * costs one process whatever the table holds (docs/PERFORMANCE.md "bridge with ipMasq").
 */
import { isBuiltinChain, jumpTarget } from "./builtins.ts";
import { formatIptRule } from "./ipt-tokens.ts";
import type { Family, IptablesOp } from "./ops.ts";
import { iptTablesOf } from "./render-ipt.ts";

/** The restore input, or undefined when the operations are not a DEL this can guess. */
export function renderIptOptimistic(ops: readonly IptablesOp[], family: Family): string | undefined {
  const mine = ops.filter((o) => o.family === family);
  const guessable = (o: IptablesOp): boolean => o.op === "ipt.rule.delete" || o.op === "ipt.chain.remove";
  if (mine.length === 0 || !mine.every(guessable)) return undefined;
  if (!mine.some((o) => (o.op === "ipt.rule.delete" || o.op === "ipt.chain.remove") && o.present === true))
    return undefined;
  const blocks: string[] = [];
  for (const table of iptTablesOf(mine, family)) {
    const here = mine.filter((o) => o.table === table);
    const removed = new Set(here.flatMap((o) => (o.op === "ipt.chain.remove" ? [o.chain] : [])));
    const deletes: string[] = [];
    const chains: string[] = [];
    const seen = new Set<string>();
    for (const op of here) {
      if (op.op === "ipt.rule.delete") {
        if (op.present !== true) {
          const target = jumpTarget(op.rule);
          if (target === undefined || !removed.has(target)) return undefined;
          continue;
        }
        const line = `-D ${op.chain} ${formatIptRule(op.rule)}`;
        if (!seen.has(line)) deletes.push(line);
        seen.add(line);
      } else if (op.op === "ipt.chain.remove") {
        // The read path refuses a built-in chain with its own message.
        if (isBuiltinChain(table, op.chain)) return undefined;
        if (seen.has(`chain ${op.chain}`)) continue;
        seen.add(`chain ${op.chain}`);
        chains.push(...(op.present === true ? [`-F ${op.chain}`] : [`-N ${op.chain}`]), `-X ${op.chain}`);
      }
    }
    // Every rule first: a chain's -X needs the jumps to it gone.
    blocks.push(`*${table}`, ...deletes, ...chains, "COMMIT");
  }
  return `${blocks.join("\n")}\n`;
}
