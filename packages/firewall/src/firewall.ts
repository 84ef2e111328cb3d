/**
 * The Firewall port: the only way plugins touch netfilter, as {@link Kernel} is for links
 * and routes. Writes are transactions of {@link FirewallOp}; reads return what is there,
 * in the same terms, so CHECK compares and DEL finds rules the reference made.
 */
import type { Family, FirewallTx, IptRule, IptTable, NftFamily } from "./ops.ts";

/** One iptables chain as `iptables-save` shows it. */
export interface IptChainState {
  name: string;
  /** Rules in order, each as {@link IptRule} tokens (saved form, without `-A CHAIN`). */
  rules: IptRule[];
}

/** One nftables rule as `nft list` shows it. */
export interface NftRuleState {
  /** Statement text without the comment. */
  rule: string;
  comment?: string;
  handle: number;
}

/** One nftables chain. */
export interface NftChainState {
  name: string;
  rules: NftRuleState[];
}

/** The two netfilter front ends a plugin can be configured with (`ipMasqBackend`, portmap `backend`). */
export type FirewallBackend = "iptables" | "nftables";

/** Which backends work in this namespace (the reference's SupportsIPTables / SupportsNFTables). */
export interface FirewallSupport {
  iptables: boolean;
  nftables: boolean;
}

/** A failed firewall change or read, with the tool's own message. */
export class FirewallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FirewallError";
  }
}

/** The port through which plugins read and change netfilter in their own namespace. */
export interface Firewall {
  /** What works here; computed once and cached by real implementations. */
  support(): Promise<FirewallSupport>;
  /**
   * Whether one backend works, checking only that one (the reference checks nftables only
   * when iptables does not work, H-3); optional, {@link backendWorks} falls back to support().
   */
  supports?(backend: FirewallBackend): Promise<boolean>;
  /**
   * Applies a transaction: one restore per iptables family touched and one nft
   * transaction, each all or nothing. Throws {@link FirewallError}; nothing of a
   * failed family or nft transaction is left applied.
   */
  apply(tx: FirewallTx): Promise<void>;
  /** The chains of an iptables table, or undefined when that table or tool is unusable. */
  iptables(family: Family, table: IptTable): Promise<IptChainState[] | undefined>;
  /** The chains of an nftables table, or undefined when the table does not exist. */
  nftTable(family: NftFamily, table: string): Promise<NftChainState[] | undefined>;
  /**
   * Loads what a first transaction needs (a lazily loaded backend's code), so that a
   * later `apply` starts its tools at once; optional, a no-op where nothing loads late.
   */
  prepare?(): Promise<void>;
}
