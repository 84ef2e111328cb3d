/**
 * The fake firewall's memory: iptables tables keyed by family and table, nftables tables
 * keyed by family and name. Plain maps so a transaction can work on a copy and the copy
 * replaces the original only when every operation succeeded (all or nothing).
 */
import { BUILTIN_CHAINS } from "../builtins.ts";
import type { Family, IptRule, IptTable, NftBaseChain, NftFamily } from "../ops.ts";

/** One iptables table: chains in creation order (built-ins first), each a list of rules. */
export type FakeIptTable = Map<string, IptRule[]>;

/** One nftables rule as stored. */
export interface FakeNftRule {
  rule: string;
  comment?: string;
  handle: number;
}

/** One nftables chain as stored. */
export interface FakeNftChain {
  base?: NftBaseChain;
  comment?: string;
  rules: FakeNftRule[];
}

/** One nftables table as stored; handles grow per table as the kernel's do. */
export interface FakeNftTable {
  comment?: string;
  chains: Map<string, FakeNftChain>;
  nextHandle: number;
}

/** Everything the fake firewall holds. */
export interface FakeState {
  ipt: Map<string, FakeIptTable>;
  nft: Map<string, FakeNftTable>;
}

/** The key of an iptables table in {@link FakeState.ipt}. */
export const iptKey = (family: Family, table: IptTable): string => `${family} ${table}`;

/** The key of an nftables table in {@link FakeState.nft}. */
export const nftKey = (family: NftFamily, table: string): string => `${family} ${table}`;

/** The table, created with its built-in chains on first use as the kernel loads it on demand. */
export function iptTable(state: FakeState, family: Family, table: IptTable): FakeIptTable {
  const key = iptKey(family, table);
  let t = state.ipt.get(key);
  if (t === undefined) {
    t = new Map(BUILTIN_CHAINS[table].map((c) => [c, []]));
    state.ipt.set(key, t);
  }
  return t;
}

/** A deep copy: a transaction works on this and is dropped on failure. */
export function cloneState(state: FakeState): FakeState {
  const ipt = new Map<string, FakeIptTable>();
  for (const [k, t] of state.ipt) ipt.set(k, new Map([...t].map(([c, rules]) => [c, [...rules]])));
  const nft = new Map<string, FakeNftTable>();
  for (const [k, t] of state.nft) {
    const chains = new Map<string, FakeNftChain>();
    for (const [c, ch] of t.chains) chains.set(c, { ...ch, rules: ch.rules.map((r) => ({ ...r })) });
    nft.set(k, { ...t, chains });
  }
  return { ipt, nft };
}
