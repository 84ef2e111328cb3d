/**
 * A firewall in memory that interprets the same transactions as the real backends, with
 * the kernel's refusals (the knftables fake model, CONVENTIONS "knftables"). Tests set
 * which backends work, read back what is there, inject failures, and count transactions.
 */
import { BUILTIN_CHAINS } from "../builtins.ts";
import {
  type Firewall,
  type FirewallBackend,
  FirewallError,
  type FirewallSupport,
  type IptChainState,
  type NftChainState,
} from "../firewall.ts";
import { type Family, type FirewallOp, type FirewallTx, type IptTable, isIptablesOp, type NftFamily } from "../ops.ts";
import { applyIptOp } from "./ipt.ts";
import { applyNftOp } from "./nft.ts";
import { cloneState, type FakeState, iptKey, nftKey } from "./state.ts";

/** How a {@link FakeFirewall} starts. */
export interface FakeFirewallOptions {
  /** Which backends work; both by default. An unsupported backend refuses ops and reads nothing. */
  support?: Partial<FirewallSupport>;
  /** Makes an operation fail (return the message) to test rollback; called before it is applied. */
  failWhen?: (op: FirewallOp) => string | undefined;
}

/**
 * What the fake holds, as plain data for `toEqual`: iptables tables keyed `"4 nat"`, nft
 * tables keyed `"inet cni_plugins_masquerade"`, each chain a list of rule lines (iptables
 * tokens joined by spaces; nft statement plus `comment "..."`). Tables still in their
 * pristine state (only empty built-in chains) are left out, so a fresh fake dumps empty.
 */
export interface FirewallDump {
  iptables: Record<string, Record<string, string[]>>;
  nftables: Record<string, Record<string, string[]>>;
}

/** The in-memory {@link Firewall}. */
export class FakeFirewall implements Firewall {
  private state: FakeState = { ipt: new Map(), nft: new Map() };
  private readonly supported: FirewallSupport;
  /** Injected failure, changeable between calls. */
  failWhen: ((op: FirewallOp) => string | undefined) | undefined;
  /** Every transaction passed to {@link apply}, failed ones included, in order. */
  readonly transactions: FirewallTx[] = [];

  constructor(options: FakeFirewallOptions = {}) {
    this.supported = { iptables: options.support?.iptables ?? true, nftables: options.support?.nftables ?? true };
    this.failWhen = options.failWhen;
  }

  /** Which backends this fake pretends work. */
  async support(): Promise<FirewallSupport> {
    return { ...this.supported };
  }

  /** Whether one backend works (as configured). */
  async supports(backend: FirewallBackend): Promise<boolean> {
    return this.supported[backend];
  }

  /** Applies the whole transaction on a copy and keeps it only when every operation succeeded. */
  async apply(tx: FirewallTx): Promise<void> {
    this.transactions.push(tx);
    const next = cloneState(this.state);
    for (const op of tx) {
      const ipt = isIptablesOp(op);
      if (ipt && !this.supported.iptables) throw new FirewallError("iptables is not usable here");
      if (!ipt && !this.supported.nftables) throw new FirewallError("nftables is not usable here");
      const injected = this.failWhen?.(op);
      if (injected !== undefined) throw new FirewallError(injected);
      if (ipt) applyIptOp(next, op);
      else applyNftOp(next, op);
    }
    this.state = next;
  }

  /** The table's chains, built-ins first; undefined when iptables is not usable. */
  async iptables(family: Family, table: IptTable): Promise<IptChainState[] | undefined> {
    if (!this.supported.iptables) return undefined;
    const t = this.state.ipt.get(iptKey(family, table));
    if (t === undefined) return BUILTIN_CHAINS[table].map((name) => ({ name, rules: [] }));
    return [...t].map(([name, rules]) => ({ name, rules: rules.map((r) => [...r]) }));
  }

  /** The table's chains; undefined when it does not exist or nftables is not usable. */
  async nftTable(family: NftFamily, table: string): Promise<NftChainState[] | undefined> {
    if (!this.supported.nftables) return undefined;
    const t = this.state.nft.get(nftKey(family, table));
    if (t === undefined) return undefined;
    return [...t.chains].map(([name, c]) => ({ name, rules: c.rules.map((r) => ({ ...r })) }));
  }

  /** A snapshot of everything held (see {@link FirewallDump}). */
  dump(): FirewallDump {
    const out: FirewallDump = { iptables: {}, nftables: {} };
    for (const [key, t] of [...this.state.ipt].sort(([a], [b]) => a.localeCompare(b))) {
      const chains = [...t];
      const table = key.split(" ")[1] as IptTable;
      const pristine = chains.every(([name, rules]) => rules.length === 0 && BUILTIN_CHAINS[table].includes(name));
      if (!pristine)
        out.iptables[key] = Object.fromEntries(chains.map(([name, rules]) => [name, rules.map((r) => r.join(" "))]));
    }
    for (const [key, t] of [...this.state.nft].sort(([a], [b]) => a.localeCompare(b))) {
      out.nftables[key] = Object.fromEntries(
        [...t.chains].map(([name, c]) => [
          name,
          c.rules.map((r) => (r.comment === undefined ? r.rule : `${r.rule} comment ${JSON.stringify(r.comment)}`)),
        ]),
      );
    }
    return out;
  }
}
