/**
 * Reading one nftables table over nfnetlink: whether it exists (NFT_MSG_GETTABLE), its
 * chains (a chain dump, kept to this table) and its rules (a rule dump filtered by table),
 * each rule printed back to nft's text (print.ts) with its comment from the rule's
 * userdata and its handle: the same {@link NftChainState} `nft -a -s list table` gives.
 */
import { attrs, attrStr } from "@tscni/kernel/netlink";
import type { NftChainState } from "../../firewall.ts";
import * as C from "./const.ts";
import { decodeExpr } from "./expr.ts";
import { printRule } from "./print.ts";
import { nftMessage, type NfnlSocket } from "./socket.ts";

const ENOENT = 2;
const type = (msg: number): number => (C.NFNL_SUBSYS_NFTABLES << 8) | msg;

/** The comment in a userdata blob (TLVs of type, length, value), without its NUL. */
export function userdataComment(v: DataView | undefined): string | undefined {
  if (v === undefined) return undefined;
  for (let at = 0; at + 2 <= v.byteLength; ) {
    const t = v.getUint8(at);
    const len = v.getUint8(at + 1);
    if (t === C.UDATA_COMMENT) {
      const b = new Uint8Array(v.buffer, v.byteOffset + at + 2, Math.min(len, v.byteLength - at - 2));
      const nul = b.indexOf(0);
      return new TextDecoder().decode(nul < 0 ? b : b.subarray(0, nul));
    }
    at += 2 + len;
  }
  return undefined;
}

/** Every attribute of a list (NFTA_LIST_ELEM repeats, which a by-type map would collapse). */
export function attrList(v: DataView): DataView[] {
  const out: DataView[] = [];
  for (let at = 0; at + 4 <= v.byteLength; ) {
    const len = v.getUint16(at, true);
    if (len < 4 || at + len > v.byteLength) break;
    out.push(new DataView(v.buffer, v.byteOffset + at + 4, len - 4));
    at += (len + 3) & ~3;
  }
  return out;
}

/** The table's chains and rules, or undefined when it does not exist. */
export function readTable(s: NfnlSocket, family: string, table: string): NftChainState[] | undefined {
  const fam = C.NFPROTO[family as keyof typeof C.NFPROTO];
  try {
    s.request(nftMessage(type(C.MSG.GETTABLE), C.NLM_F.REQUEST | C.NLM_F.ACK, fam).str(C.TABLE.NAME, table));
  } catch (e) {
    if ((e as { errno?: number }).errno === ENOENT) return undefined;
    throw e;
  }
  const chains = new Map<string, NftChainState>();
  for (const p of s.request(
    nftMessage(type(C.MSG.GETCHAIN), C.NLM_F.REQUEST | C.NLM_F.DUMP, fam).str(C.CHAIN.TABLE, table),
  )) {
    const a = attrs(p, 4);
    const name = attrStr(a.get(C.CHAIN.NAME));
    if (attrStr(a.get(C.CHAIN.TABLE)) === table && name !== undefined) chains.set(name, { name, rules: [] });
  }
  for (const p of s.request(
    nftMessage(type(C.MSG.GETRULE), C.NLM_F.REQUEST | C.NLM_F.DUMP, fam).str(C.RULE.TABLE, table),
  )) {
    const a = attrs(p, 4);
    if (attrStr(a.get(C.RULE.TABLE)) !== table) continue;
    const chain = chains.get(attrStr(a.get(C.RULE.CHAIN)) ?? "");
    const h = a.get(C.RULE.HANDLE);
    const list = a.get(C.RULE.EXPRESSIONS);
    if (chain === undefined || h === undefined) continue;
    const exprs = [];
    if (list !== undefined) for (const elem of attrList(list)) exprs.push(decodeExpr(elem));
    const comment = userdataComment(a.get(C.RULE.USERDATA));
    chain.rules.push({
      rule: printRule(family, exprs),
      ...(comment !== undefined && { comment }),
      handle: Number(h.getBigUint64(0)),
    });
  }
  return [...chains.values()];
}
