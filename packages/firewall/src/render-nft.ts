/**
 * A transaction's nftables operations, plus the tables as read, turned into the exact
 * `nft -f -` script that makes the difference; nft applies the whole script as one
 * atomic kernel transaction. Objects that exist are not added again, objects that are
 * gone are not deleted (`delete` of a missing object fails the script), and rules are
 * deleted by the handles the read gave (as the reference's knftables does).
 */
import { nftJumpTargets } from "./builtins.ts";
import { FirewallError, type NftChainState } from "./firewall.ts";
import type { NftBaseChain, NftFamily, NftOp } from "./ops.ts";

/** A table as read before the change, undefined when it does not exist. */
export type NftReads = (family: NftFamily, table: string) => readonly NftChainState[] | undefined;

interface SimRule {
  comment?: string;
  /** False for a pending add that jumps to a chain missing then: its line must stay, for the kernel to refuse. */
  cancellable?: boolean;
  /** The kernel's handle, or the index of the not yet applied `add rule` line. */
  handle?: number;
  line?: number;
}

/** The tables operations touch, in first-use order (what must be read). */
export function nftTablesOf(ops: readonly NftOp[]): { family: NftFamily; table: string }[] {
  const seen = new Map<string, { family: NftFamily; table: string }>();
  for (const op of ops)
    seen.set(
      `${op.family} ${op.table}`,
      seen.get(`${op.family} ${op.table}`) ?? { family: op.family, table: op.table },
    );
  return [...seen.values()];
}

/** `comment "..."`; nft strings cannot hold a double quote, so one is refused (H-3 strips them). */
export function nftComment(comment: string): string {
  if (comment.includes('"')) throw new FirewallError(`nft comment ${JSON.stringify(comment)} contains a double quote`);
  return `comment "${comment}"`;
}

/** The body of a chain's `{ ... }`, or empty for a regular chain without comment. */
function chainSpec(base: NftBaseChain | undefined, comment: string | undefined): string {
  const parts: string[] = [];
  if (base !== undefined) {
    parts.push(`type ${base.type} hook ${base.hook} priority ${base.priority} ;`);
    if (base.policy !== undefined) parts.push(`policy ${base.policy} ;`);
  }
  if (comment !== undefined) parts.push(`${nftComment(comment)} ;`);
  return parts.length === 0 ? "" : ` { ${parts.join(" ")} }`;
}

/** The `nft -f -` script for `ops`, or undefined when nothing changes. */
export function renderNftScript(ops: readonly NftOp[], reads: NftReads): string | undefined {
  const tables = new Map<string, Map<string, SimRule[]>>();
  for (const { family, table } of nftTablesOf(ops)) {
    const read = reads(family, table);
    if (read !== undefined)
      tables.set(`${family} ${table}`, new Map(read.map((c) => [c.name, c.rules.map((r) => ({ ...r }))])));
  }
  const lines: (string | undefined)[] = [];
  for (const op of ops) {
    const where = `${op.family} ${op.table}`;
    const chains = tables.get(where);
    switch (op.op) {
      case "nft.table.ensure":
        if (chains !== undefined) break;
        tables.set(where, new Map());
        lines.push(`add table ${where}${op.comment === undefined ? "" : ` { ${nftComment(op.comment)} ; }`}`);
        break;
      case "nft.table.remove":
        if (chains === undefined) break;
        tables.delete(where);
        lines.push(`delete table ${where}`);
        break;
      case "nft.chain.ensure":
        if (chains?.has(op.chain)) break;
        chains?.set(op.chain, []);
        lines.push(`add chain ${where} ${op.chain}${chainSpec(op.base, op.comment)}`);
        break;
      case "nft.chain.flush": {
        const rules = chains?.get(op.chain);
        if (rules === undefined || rules.length === 0) break;
        chains?.set(op.chain, []);
        lines.push(`flush chain ${where} ${op.chain}`);
        break;
      }
      case "nft.chain.remove": {
        const rules = chains?.get(op.chain);
        if (rules === undefined) break;
        chains?.delete(op.chain);
        // A chain must be empty to be deleted.
        if (rules.length > 0) lines.push(`flush chain ${where} ${op.chain}`);
        lines.push(`delete chain ${where} ${op.chain}`);
        break;
      }
      case "nft.rule.add": {
        const text = `${op.insert ? "insert" : "add"} rule ${where} ${op.chain} ${op.rule}${op.comment === undefined ? "" : ` ${nftComment(op.comment)}`}`;
        const rules = chains?.get(op.chain);
        const cancellable = nftJumpTargets(op.rule).every((t) => chains?.has(t));
        const sim: SimRule = {
          line: lines.length,
          cancellable,
          ...(op.comment !== undefined && { comment: op.comment }),
        };
        if (op.insert) rules?.unshift(sim);
        else rules?.push(sim);
        lines.push(text);
        break;
      }
      case "nft.rule.delete": {
        if (op.comment === undefined && op.commentPrefix === undefined)
          throw new FirewallError("nft rule delete needs a comment or a comment prefix");
        const rules = chains?.get(op.chain);
        if (rules === undefined) break;
        const hit = (r: SimRule): boolean =>
          r.comment !== undefined &&
          (r.comment === op.comment || (op.commentPrefix !== undefined && r.comment.startsWith(op.commentPrefix)));
        for (const r of rules.filter(hit)) {
          // A rule added earlier in this script has no handle yet: not adding it is the same.
          if (r.line !== undefined) {
            if (r.cancellable) lines[r.line] = undefined;
          } else lines.push(`delete rule ${where} ${op.chain} handle ${r.handle}`);
        }
        chains?.set(
          op.chain,
          rules.filter((r) => !hit(r)),
        );
        break;
      }
    }
  }
  const out = lines.filter((l): l is string => l !== undefined);
  return out.length === 0 ? undefined : `${out.join("\n")}\n`;
}
