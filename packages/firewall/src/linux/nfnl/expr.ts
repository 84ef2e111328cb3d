/**
 * nf_tables expressions as data, and their netlink attributes both ways: what a rule is
 * made of in the kernel (`[ payload load 4b @ network header + 12 => reg 1 ]`, ...), the
 * subset CNI's statements compile to. An expression outside the subset decodes as
 * `unknown`, which the printer refuses, so the reader falls back to `nft`.
 */
import { attrs, attrStr, type MessageBuilder } from "@tscni/kernel/netlink";
import * as C from "./const.ts";

/** One expression of a rule. Registers are NFT_REG_1.. (16 bytes each); 0 is the verdict. */
export type Expr =
  | { k: "payload"; base: keyof typeof C.PAYLOAD_BASE; offset: number; len: number; dreg: number }
  | { k: "meta"; key: keyof typeof C.META_KEY; dreg: number }
  | { k: "cmp"; op: keyof typeof C.CMP_OP; sreg: number; data: Uint8Array }
  | { k: "bitwise"; sreg: number; dreg: number; mask: Uint8Array; xor: Uint8Array; op?: "bool" }
  | { k: "fib"; flags: number; result: number; dreg: number }
  | { k: "verdict"; verdict: C.VerdictName; chain?: string }
  | { k: "immediate"; dreg: number; data: Uint8Array }
  | { k: "counter" }
  | { k: "masq" }
  | { k: "nat"; type: keyof typeof C.NAT_TYPE; family: 4 | 6; addr: number; proto?: number }
  | { k: "ct"; key: keyof typeof C.CT_KEY; dreg: number; dir?: keyof typeof C.CT_DIR }
  | { k: "metaSet"; key: "mark"; sreg: number }
  | { k: "ctSet"; key: "mark"; sreg: number }
  | { k: "unknown"; name: string };

function be32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
}

/** Big-endian 32-bit attribute (nf_tables' NLA_BE32). */
export function putBe32(m: MessageBuilder, type: number, n: number): MessageBuilder {
  return m.bytes(type, be32(n));
}

function value(m: MessageBuilder, type: number, data: Uint8Array): void {
  m.nest(type | C.NLA_F_NESTED)
    .bytes(C.DATA.VALUE, data)
    .end();
}

const NAMES: Record<Exclude<Expr["k"], "unknown">, string> = {
  payload: "payload",
  meta: "meta",
  cmp: "cmp",
  bitwise: "bitwise",
  fib: "fib",
  verdict: "immediate",
  immediate: "immediate",
  counter: "counter",
  masq: "masq",
  nat: "nat",
  ct: "ct",
  metaSet: "meta",
  ctSet: "ct",
};

/** Appends one expression as an NFTA_LIST_ELEM to `m` (inside NFTA_RULE_EXPRESSIONS). */
export function encodeExpr(m: MessageBuilder, e: Expr): void {
  if (e.k === "unknown") throw new Error(`cannot encode expression ${e.name}`);
  m.nest(C.LIST_ELEM | C.NLA_F_NESTED).str(C.EXPR.NAME, NAMES[e.k]);
  m.nest(C.EXPR.DATA | C.NLA_F_NESTED);
  switch (e.k) {
    case "payload":
      putBe32(m, C.PAYLOAD.DREG, e.dreg);
      putBe32(m, C.PAYLOAD.BASE, C.PAYLOAD_BASE[e.base]);
      putBe32(m, C.PAYLOAD.OFFSET, e.offset);
      putBe32(m, C.PAYLOAD.LEN, e.len);
      break;
    case "meta":
      putBe32(m, C.META.KEY, C.META_KEY[e.key]);
      putBe32(m, C.META.DREG, e.dreg);
      break;
    case "cmp":
      putBe32(m, C.CMP.SREG, e.sreg);
      putBe32(m, C.CMP.OP, C.CMP_OP[e.op]);
      value(m, C.CMP.DATA, e.data);
      break;
    case "bitwise":
      putBe32(m, C.BITWISE.SREG, e.sreg);
      putBe32(m, C.BITWISE.DREG, e.dreg);
      // nft names the operation (NFTA_BITWISE_OP, NFT_BITWISE_BOOL) for an explicit `&` only.
      if (e.op === "bool") putBe32(m, 6, 0);
      putBe32(m, C.BITWISE.LEN, e.mask.length);
      value(m, C.BITWISE.MASK, e.mask);
      value(m, C.BITWISE.XOR, e.xor);
      break;
    case "fib":
      // libnftnl's order: flags, result, register.
      putBe32(m, C.FIB.FLAGS, e.flags);
      putBe32(m, C.FIB.RESULT, e.result);
      putBe32(m, C.FIB.DREG, e.dreg);
      break;
    case "verdict":
      putBe32(m, C.IMMEDIATE.DREG, 0);
      m.nest(C.IMMEDIATE.DATA | C.NLA_F_NESTED).nest(C.DATA.VERDICT | C.NLA_F_NESTED);
      putBe32(m, C.VERDICT.CODE, C.VERDICT_CODE[e.verdict]);
      if (e.chain !== undefined) m.str(C.VERDICT.CHAIN, e.chain);
      m.end().end();
      break;
    case "immediate":
      putBe32(m, C.IMMEDIATE.DREG, e.dreg);
      value(m, C.IMMEDIATE.DATA, e.data);
      break;
    case "nat":
      putBe32(m, C.NAT.TYPE, C.NAT_TYPE[e.type]);
      putBe32(m, C.NAT.FAMILY, e.family === 4 ? C.NFPROTO.ip : C.NFPROTO.ip6);
      putBe32(m, C.NAT.REG_ADDR_MIN, e.addr);
      if (e.proto !== undefined) putBe32(m, C.NAT.REG_PROTO_MIN, e.proto);
      // As nft sends it; the kernel adds NF_NAT_RANGE_MAP_IPS itself for an address register.
      if (e.proto !== undefined) putBe32(m, C.NAT.FLAGS, C.NAT_RANGE_PROTO_SPECIFIED);
      break;
    case "ct":
      // libnftnl's order: key, register, direction (a u8).
      putBe32(m, C.CT.KEY, C.CT_KEY[e.key]);
      putBe32(m, C.CT.DREG, e.dreg);
      if (e.dir !== undefined) m.bytes(C.CT.DIRECTION, Uint8Array.of(C.CT_DIR[e.dir]));
      break;
    case "ctSet":
      putBe32(m, C.CT.KEY, C.CT_KEY[e.key]);
      putBe32(m, C.CT.SREG, e.sreg);
      break;
    case "metaSet":
      putBe32(m, C.META.KEY, C.META_KEY[e.key]);
      putBe32(m, C.META.SREG, e.sreg);
      break;
    case "counter":
    case "masq":
      break;
  }
  m.end().end();
}

const u32 = (v: DataView | undefined): number | undefined =>
  v === undefined || v.byteLength < 4 ? undefined : v.getUint32(0);
const i32 = (v: DataView | undefined): number | undefined =>
  v === undefined || v.byteLength < 4 ? undefined : v.getInt32(0);
const bytesOf = (v: DataView | undefined): Uint8Array | undefined =>
  v === undefined ? undefined : new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice();
const dataValue = (v: DataView | undefined): Uint8Array | undefined =>
  v === undefined ? undefined : bytesOf(attrs(v).get(C.DATA.VALUE));
const keyOf = <T extends Record<string, number>>(table: T, n: number | undefined): keyof T | undefined =>
  (Object.keys(table) as (keyof T)[]).find((k) => table[k] === n);

/** One NFTA_LIST_ELEM back into an expression; anything outside the subset is `unknown`. */
export function decodeExpr(elem: DataView): Expr {
  const a = attrs(elem);
  const name = attrStr(a.get(C.EXPR.NAME)) ?? "";
  const d = a.get(C.EXPR.DATA);
  const x = d === undefined ? new Map<number, DataView>() : attrs(d);
  const unknown: Expr = { k: "unknown", name };
  switch (name) {
    case "payload": {
      const base = keyOf(C.PAYLOAD_BASE, u32(x.get(C.PAYLOAD.BASE)));
      const [offset, len, dreg] = [u32(x.get(C.PAYLOAD.OFFSET)), u32(x.get(C.PAYLOAD.LEN)), u32(x.get(C.PAYLOAD.DREG))];
      if (base === undefined || offset === undefined || len === undefined || dreg === undefined)
        return { k: "unknown", name: "payload write" };
      return { k: "payload", base, offset, len, dreg };
    }
    case "meta": {
      const key = keyOf(C.META_KEY, u32(x.get(C.META.KEY)));
      const dreg = u32(x.get(C.META.DREG));
      const sreg = u32(x.get(C.META.SREG));
      if (key === "mark" && dreg === undefined && sreg !== undefined) return { k: "metaSet", key, sreg };
      return key === undefined || dreg === undefined ? unknown : { k: "meta", key, dreg };
    }
    case "ct": {
      const key = keyOf(C.CT_KEY, u32(x.get(C.CT.KEY)));
      const [dreg, sreg] = [u32(x.get(C.CT.DREG)), u32(x.get(C.CT.SREG))];
      const d = x.get(C.CT.DIRECTION);
      const dir = d === undefined ? undefined : keyOf(C.CT_DIR, d.byteLength < 1 ? undefined : d.getUint8(0));
      if (key === undefined || (d !== undefined && dir === undefined)) return unknown;
      if (key === "mark" && dreg === undefined && sreg !== undefined && d === undefined)
        return { k: "ctSet", key, sreg };
      if (dreg === undefined) return unknown;
      return { k: "ct", key, dreg, ...(dir !== undefined && { dir }) };
    }
    case "cmp": {
      const op = keyOf(C.CMP_OP, u32(x.get(C.CMP.OP)));
      const data = dataValue(x.get(C.CMP.DATA));
      return op === undefined || data === undefined
        ? unknown
        : { k: "cmp", op, sreg: u32(x.get(C.CMP.SREG)) ?? 0, data };
    }
    case "bitwise": {
      const [mask, xor] = [dataValue(x.get(C.BITWISE.MASK)), dataValue(x.get(C.BITWISE.XOR))];
      // NFTA_BITWISE_OP (6): the kernel dumps NFT_BITWISE_BOOL (0); shifts are outside the subset.
      if (mask === undefined || xor === undefined || (u32(x.get(6)) ?? 0) !== 0) return unknown;
      return { k: "bitwise", sreg: u32(x.get(C.BITWISE.SREG)) ?? 0, dreg: u32(x.get(C.BITWISE.DREG)) ?? 0, mask, xor };
    }
    case "fib":
      return {
        k: "fib",
        flags: u32(x.get(C.FIB.FLAGS)) ?? 0,
        result: u32(x.get(C.FIB.RESULT)) ?? 0,
        dreg: u32(x.get(C.FIB.DREG)) ?? 0,
      };
    case "immediate": {
      const dreg = u32(x.get(C.IMMEDIATE.DREG)) ?? 0;
      const data = x.get(C.IMMEDIATE.DATA);
      if (data === undefined) return unknown;
      const inner = attrs(data);
      const v = inner.get(C.DATA.VERDICT);
      if (v !== undefined) {
        const va = attrs(v);
        const verdict = keyOf(C.VERDICT_CODE, i32(va.get(C.VERDICT.CODE)));
        if (verdict === undefined) return unknown;
        const chain = attrStr(va.get(C.VERDICT.CHAIN));
        return { k: "verdict", verdict, ...(chain !== undefined && { chain }) };
      }
      const value = bytesOf(inner.get(C.DATA.VALUE));
      return value === undefined ? unknown : { k: "immediate", dreg, data: value };
    }
    case "counter":
      return { k: "counter" };
    case "masq":
      return x.size === 0 ? { k: "masq" } : unknown;
    case "nat": {
      const type = keyOf(C.NAT_TYPE, u32(x.get(C.NAT.TYPE)));
      const fam = u32(x.get(C.NAT.FAMILY));
      const addr = u32(x.get(C.NAT.REG_ADDR_MIN));
      const proto = u32(x.get(C.NAT.REG_PROTO_MIN));
      const flags = u32(x.get(C.NAT.FLAGS)) ?? 0;
      const want = proto === undefined ? 0 : C.NAT_RANGE_PROTO_SPECIFIED;
      // The kernel dumps each max register too, equal to its min for a single address or port.
      const addrMax = u32(x.get(C.NAT.REG_ADDR_MAX)) ?? addr;
      const protoMax = u32(x.get(C.NAT.REG_PROTO_MAX)) ?? proto;
      if (
        type === undefined ||
        addr === undefined ||
        addrMax !== addr ||
        protoMax !== proto ||
        (flags & ~C.NAT_RANGE_MAP_IPS) !== want
      )
        return unknown;
      if (fam !== C.NFPROTO.ip && fam !== C.NFPROTO.ip6) return unknown;
      return { k: "nat", type, family: fam === C.NFPROTO.ip ? 4 : 6, addr, ...(proto !== undefined && { proto }) };
    }
    default:
      return unknown;
  }
}
