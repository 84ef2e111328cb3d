/**
 * Firewall changes as data (ARCHITECTURE.md "firewall/", CONVENTIONS item 4): a plugin
 * computes a transaction, a list of these operations, before anything is touched. The
 * iptables backend turns one transaction into one `iptables-restore --noflush --wait`
 * (and `ip6tables-restore`) per family, the nftables backend into one atomic `nft -f -`
 * transaction, the fake firewall interprets it in memory, and `cni plan` prints it.
 *
 * Operations are declarative and idempotent, as the reference's go-iptables calls are
 * (AppendUnique, ClearChain, DeleteChain ignoring "does not exist"): a backend reads the
 * state it needs once, then writes only the difference, so ADD again and DEL again
 * succeed (DEL-3) and rules made by the reference are found by their exact text (H-3, 8.5).
 * Every operation runs in the plugin's own network namespace (the host, P-1).
 */

/** An IP family: 4 for iptables/`ip`, 6 for ip6tables/`ip6`. */
export type Family = 4 | 6;

/** The iptables tables a CNI plugin touches. */
export type IptTable = "nat" | "filter" | "mangle" | "raw";

/**
 * An iptables rule as its match and target tokens, in the canonical order and spelling
 * that `iptables-save` prints them (`-s 198.18.0.5/32 -m comment --comment "..." -j X`),
 * without the leading `-A CHAIN`. Keeping the saved form makes a read comparable with
 * what we wrote, and a rule written by the reference found by its text. Tokens are argv
 * values, unquoted: `["-m", "comment", "--comment", 'name: "n" id: "c"', "-j", "X"]`;
 * renderers quote and readers unquote. Saved form means, for example, `/32` on host
 * addresses and `-m tcp` after `-p tcp` when a port is matched.
 */
export type IptRule = readonly string[];

/** Create the chain unless it exists (never flushes it). */
export interface IptChainEnsure {
  op: "ipt.chain.ensure";
  family: Family;
  table: IptTable;
  chain: string;
  /**
   * The chain is named for one container (CNI-DN-<hash>, CNI-<hash>) and is normally new:
   * a backend may write without reading, assuming it is absent, rules jumping to it are
   * absent too, and every other rule the transaction adds is already there (checked with
   * `-C` in the same restore); when any of that is wrong the write fails whole and the
   * backend reads and renders as usual (render-ipt-fresh.ts).
   */
  fresh?: boolean;
}

/** Empty the chain if it exists (ClearChain without the create). */
export interface IptChainFlush {
  op: "ipt.chain.flush";
  family: Family;
  table: IptTable;
  chain: string;
}

/**
 * Remove the chain if it exists: first every rule of the table that jumps or goes to it,
 * then its rules, then the chain (the reference's ClearChain + DeleteChain after deleting
 * the references it knows).
 */
export interface IptChainRemove {
  op: "ipt.chain.remove";
  family: Family;
  table: IptTable;
  chain: string;
  /**
   * The attachment's ADD made the chain, so it is most likely there, and the only rules
   * jumping to it are the `present` deletes of the same transaction: a backend may flush
   * and remove it without reading (render-ipt-optimistic.ts). Without it, a read-free DEL
   * proves the chain absent instead (`-N` then `-X`). When a guess is wrong the write
   * fails whole and the backend reads and renders as usual (DEL-3).
   */
  present?: boolean;
}

/** Append the rule to the chain unless the chain already has it (AppendUnique). */
export interface IptRuleAppend {
  op: "ipt.rule.append";
  family: Family;
  table: IptTable;
  chain: string;
  rule: IptRule;
}

/** Insert the rule first in the chain unless the chain already has it (InsertUnique at 1). */
export interface IptRuleInsert {
  op: "ipt.rule.insert";
  family: Family;
  table: IptTable;
  chain: string;
  rule: IptRule;
}

/** Delete the rule if the chain has it (every copy); a missing chain is fine. */
export interface IptRuleDelete {
  op: "ipt.rule.delete";
  family: Family;
  table: IptTable;
  chain: string;
  rule: IptRule;
  /**
   * The attachment's ADD wrote the rule (once), so it is most likely there: a backend may
   * `-D` it without reading (render-ipt-optimistic.ts); if it is gone the write fails
   * whole and the backend reads. A delete without it may go unread only when it jumps to
   * a chain the transaction removes (its presence then fails that chain's `-X`).
   */
  present?: boolean;
}

/** The nftables families CNI plugins use. */
export type NftFamily = "ip" | "ip6" | "inet" | "bridge";

/** What makes a chain a base chain: type, hook, priority (and policy). */
export interface NftBaseChain {
  type: "nat" | "filter" | "route";
  hook: "prerouting" | "input" | "forward" | "output" | "postrouting";
  /** A number or a standard name (`dstnat`, `srcnat`, `filter`, ...), as `nft` accepts. */
  priority: number | string;
  policy?: "accept" | "drop";
}

/** Create the table unless it exists (`add table`). */
export interface NftTableEnsure {
  op: "nft.table.ensure";
  family: NftFamily;
  table: string;
  comment?: string;
}

/** Delete the table and everything in it, if it exists. */
export interface NftTableRemove {
  op: "nft.table.remove";
  family: NftFamily;
  table: string;
}

/** Create the chain unless it exists (`add chain`); `base` makes it a base chain. */
export interface NftChainEnsure {
  op: "nft.chain.ensure";
  family: NftFamily;
  table: string;
  chain: string;
  base?: NftBaseChain;
  comment?: string;
}

/** Empty the chain if it exists. */
export interface NftChainFlush {
  op: "nft.chain.flush";
  family: NftFamily;
  table: string;
  chain: string;
}

/** Delete the chain (and its rules) if it exists. */
export interface NftChainRemove {
  op: "nft.chain.remove";
  family: NftFamily;
  table: string;
  chain: string;
}

/**
 * Add a rule at the end of the chain (or first with `insert`). `rule` is the statement
 * text as `nft list` prints it (`ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade`),
 * without the comment; `comment` becomes `comment "<text>"`. The chain must exist.
 */
export interface NftRuleAdd {
  op: "nft.rule.add";
  family: NftFamily;
  table: string;
  chain: string;
  rule: string;
  comment?: string;
  insert?: boolean;
}

/**
 * Delete every rule of the chain whose comment matches: equal to `comment`, or starting
 * with `commentPrefix`. A missing table or chain is fine (DEL-3).
 */
export interface NftRuleDelete {
  op: "nft.rule.delete";
  family: NftFamily;
  table: string;
  chain: string;
  comment?: string;
  commentPrefix?: string;
}

/** One iptables change. */
export type IptablesOp =
  | IptChainEnsure
  | IptChainFlush
  | IptChainRemove
  | IptRuleAppend
  | IptRuleInsert
  | IptRuleDelete;

/** One nftables change. */
export type NftOp =
  | NftTableEnsure
  | NftTableRemove
  | NftChainEnsure
  | NftChainFlush
  | NftChainRemove
  | NftRuleAdd
  | NftRuleDelete;

/** One firewall change. */
export type FirewallOp = IptablesOp | NftOp;

/** A transaction: applied all or nothing per backend and family, in order. */
export type FirewallTx = readonly FirewallOp[];

/** True for the iptables operations. */
export function isIptablesOp(op: FirewallOp): op is IptablesOp {
  return op.op.startsWith("ipt.");
}
