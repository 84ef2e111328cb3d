/**
 * nftables operations interpreted as the kernel would: a chain needs its table, a rule
 * needs its chain and every chain it jumps to, and a chain still jumped to cannot be
 * deleted (EBUSY). Adding a rule is not idempotent in nftables (the same text twice makes
 * two rules); callers flush or delete by comment first, as the reference does.
 */
import { nftJumpTargets } from "../builtins.ts";
import { FirewallError } from "../firewall.ts";
import { NFT_COMMENT_MAX } from "../names.ts";
import type { NftOp, NftRuleDelete } from "../ops.ts";
import { type FakeNftChain, type FakeNftTable, type FakeState, nftKey } from "./state.ts";

function fail(op: NftOp, what: string): never {
  throw new FirewallError(`nft: ${what} (table ${op.family} ${op.table})`);
}

function needChain(op: NftOp & { chain: string }, t: FakeNftTable | undefined): FakeNftChain {
  if (t === undefined) fail(op, `no such table for chain "${op.chain}"`);
  const chain = t.chains.get(op.chain);
  if (chain === undefined) fail(op, `no such chain "${op.chain}"`);
  return chain;
}

/** True when the rule's comment is the one `op` deletes. */
export function matchesDelete(op: NftRuleDelete, comment: string | undefined): boolean {
  if (comment === undefined) return false;
  if (op.comment !== undefined && comment === op.comment) return true;
  return op.commentPrefix !== undefined && comment.startsWith(op.commentPrefix);
}

/** Applies one nftables operation to `state` in place; throws {@link FirewallError} as the kernel refuses. */
export function applyNftOp(state: FakeState, op: NftOp): void {
  const key = nftKey(op.family, op.table);
  const t = state.nft.get(key);
  switch (op.op) {
    case "nft.table.ensure":
      if (t === undefined)
        state.nft.set(key, {
          chains: new Map(),
          nextHandle: 1,
          ...(op.comment !== undefined && { comment: op.comment }),
        });
      return;
    case "nft.table.remove":
      state.nft.delete(key);
      return;
    case "nft.chain.ensure": {
      if (t === undefined) fail(op, `no such table for chain "${op.chain}"`);
      if (t.chains.has(op.chain)) return;
      t.chains.set(op.chain, {
        rules: [],
        ...(op.base && { base: op.base }),
        ...(op.comment !== undefined && { comment: op.comment }),
      });
      t.nextHandle++;
      return;
    }
    case "nft.chain.flush": {
      const chain = t?.chains.get(op.chain);
      if (chain !== undefined) chain.rules = [];
      return;
    }
    case "nft.chain.remove": {
      if (t === undefined || !t.chains.has(op.chain)) return;
      for (const [name, chain] of t.chains) {
        if (name !== op.chain && chain.rules.some((r) => nftJumpTargets(r.rule).includes(op.chain))) {
          fail(op, `chain "${op.chain}" is still jumped to from "${name}"`);
        }
      }
      t.chains.delete(op.chain);
      return;
    }
    case "nft.rule.add": {
      const chain = needChain(op, t);
      // nft's own limits: strings cannot hold a double quote, comments stop at 128 bytes.
      if (op.comment?.includes('"')) fail(op, "comment contains a double quote");
      if (op.comment !== undefined && new TextEncoder().encode(op.comment).length > NFT_COMMENT_MAX)
        fail(op, "comment too long");
      for (const target of nftJumpTargets(op.rule)) {
        if (!t?.chains.has(target)) fail(op, `rule jumps to missing chain "${target}"`);
      }
      const table = t as FakeNftTable;
      const rule = {
        rule: op.rule,
        handle: table.nextHandle++,
        ...(op.comment !== undefined && { comment: op.comment }),
      };
      if (op.insert) chain.rules.unshift(rule);
      else chain.rules.push(rule);
      return;
    }
    case "nft.rule.delete": {
      if (op.comment === undefined && op.commentPrefix === undefined)
        fail(op, "rule delete needs a comment or a comment prefix");
      const chain = t?.chains.get(op.chain);
      if (chain !== undefined) chain.rules = chain.rules.filter((r) => !matchesDelete(op, r.comment));
      return;
    }
  }
}
