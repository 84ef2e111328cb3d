/**
 * A transaction's iptables operations of one family, plus the tables as read, turned into
 * the exact `iptables-restore --noflush` input that makes the difference: one `*table` ...
 * `COMMIT` block per table touched (each block is atomic in the kernel). Only what changes
 * is written. A chain is created with `-N`, not `:CHAIN - [0:0]`: with --noflush a `:` line
 * silently flushes a chain that someone else created since our read, where `-N` fails the
 * block ("Chain already exists") and the backend reads again and retries. Likewise a `-D`
 * of a rule that is gone fails the block rather than deleting something else.
 */
import { BUILTIN_CHAINS, isBuiltinChain, jumpTarget } from "./builtins.ts";
import { FirewallError, type IptChainState } from "./firewall.ts";
import { formatIptRule } from "./ipt-tokens.ts";
import type { Family, IptablesOp, IptRule, IptTable } from "./ops.ts";

/** The tables of one family as read before the change (chain name -> rules). */
export type IptReads = (table: IptTable) => readonly IptChainState[];

const same = (a: IptRule, b: IptRule): boolean => a.length === b.length && a.every((t, i) => t === b[i]);

/** The tables a family's operations touch, in first-use order (what must be read). */
export function iptTablesOf(ops: readonly IptablesOp[], family: Family): IptTable[] {
  return [...new Set(ops.filter((o) => o.family === family).map((o) => o.table))];
}

/**
 * The restore input for `family`'s operations in `ops`, or undefined when nothing
 * changes (then no restore runs at all: no work when there is nothing to do).
 */
export function renderIptRestore(ops: readonly IptablesOp[], family: Family, reads: IptReads): string | undefined {
  const blocks: string[] = [];
  for (const table of iptTablesOf(ops, family)) {
    const chains = new Map(reads(table).map((c) => [c.name, c.rules.map((r) => [...r])]));
    // Built-in chains exist even when a read missed them (a table the kernel loads on first use).
    for (const name of BUILTIN_CHAINS[table]) if (!chains.has(name)) chains.set(name, []);
    const lines: string[] = [];
    for (const op of ops) if (op.family === family && op.table === table) lines.push(...opLines(op, chains));
    if (lines.length > 0) blocks.push(`*${table}`, ...lines, "COMMIT");
  }
  return blocks.length === 0 ? undefined : `${blocks.join("\n")}\n`;
}

/** The lines one operation needs, updating `chains` (the simulated table) as the kernel will. */
function opLines(op: IptablesOp, chains: Map<string, IptRule[]>): string[] {
  const rules = chains.get(op.chain);
  switch (op.op) {
    case "ipt.chain.ensure":
      if (rules !== undefined || isBuiltinChain(op.table, op.chain)) return [];
      chains.set(op.chain, []);
      return [`-N ${op.chain}`];
    case "ipt.chain.flush":
      if (rules === undefined || rules.length === 0) return [];
      chains.set(op.chain, []);
      return [`-F ${op.chain}`];
    case "ipt.chain.remove": {
      if (rules === undefined) return [];
      // iptables-nft would delete a built-in chain (it is just an nft base chain); the kernel's
      // iptables and the reference never do, so neither do we.
      if (isBuiltinChain(op.table, op.chain))
        throw new FirewallError(`iptables: cannot remove built-in chain "${op.chain}" of table ${op.table}`);
      const out: string[] = [];
      // Every jump to the chain goes first, one -D per copy (the kernel refuses -X while referenced).
      for (const [name, list] of chains) {
        if (name === op.chain) continue;
        for (const r of list) if (jumpTarget(r) === op.chain) out.push(`-D ${name} ${formatIptRule(r)}`);
        chains.set(
          name,
          list.filter((r) => jumpTarget(r) !== op.chain),
        );
      }
      if (rules.length > 0) out.push(`-F ${op.chain}`);
      out.push(`-X ${op.chain}`);
      chains.delete(op.chain);
      return out;
    }
    case "ipt.rule.append":
    case "ipt.rule.insert": {
      if (rules?.some((r) => same(r, op.rule))) return [];
      // A missing chain is written anyway: the kernel refuses it and the block fails whole.
      if (op.op === "ipt.rule.append") rules?.push([...op.rule]);
      else rules?.unshift([...op.rule]);
      return [
        op.op === "ipt.rule.append"
          ? `-A ${op.chain} ${formatIptRule(op.rule)}`
          : `-I ${op.chain} 1 ${formatIptRule(op.rule)}`,
      ];
    }
    case "ipt.rule.delete": {
      if (rules === undefined) return [];
      const copies = rules.filter((r) => same(r, op.rule)).length;
      chains.set(
        op.chain,
        rules.filter((r) => !same(r, op.rule)),
      );
      return Array.from({ length: copies }, () => `-D ${op.chain} ${formatIptRule(op.rule)}`);
    }
  }
}
