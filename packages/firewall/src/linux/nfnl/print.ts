/**
 * Expressions back to rule text exactly as `nft list` (1.0.6) prints it, for the subset
 * compile.ts makes: dependencies nft adds by itself (`meta nfproto` in an inet table,
 * `meta l4proto` before a port) are folded into the match they serve. Anything else
 * throws {@link Unsupported}, and the reader lets `nft` list that table instead.
 */
import { formatAddr } from "@tscni/spec/ipnet";
import { ADDR_OFFSET, PORT_OFFSET, RTN_TYPES, Unsupported } from "./compile.ts";
import * as C from "./const.ts";
import type { Expr } from "./expr.ts";
import { printCtMark } from "./ct-mark.ts";
import { printMarkOrCt } from "./marks.ts";

function addrText(bytes: Uint8Array, family: 4 | 6): string {
  const full = new Uint8Array(family === 4 ? 4 : 16);
  full.set(bytes.subarray(0, full.length));
  let value = 0n;
  for (const b of full) value = (value << 8n) | BigInt(b);
  return formatAddr({ family, value });
}

/** The prefix length of a contiguous mask, or undefined. */
function maskPrefix(mask: Uint8Array): number | undefined {
  let bits = 0;
  let ended = false;
  for (const b of mask) {
    for (let k = 7; k >= 0; k--) {
      const set = ((b >> k) & 1) === 1;
      if (set && ended) return undefined;
      if (set) bits++;
      else ended = true;
    }
  }
  return bits;
}

const op = (e: Expr | undefined): string => (e?.k === "cmp" && e.op === "neq" ? "!= " : "");
const be16 = (d: Uint8Array): number => ((d[0] ?? 0) << 8) | (d[1] ?? 0);

/** The text of one rule of a table of `family`. */
export function printRule(family: string, exprs: readonly Expr[]): string {
  const out: string[] = [];
  let l3: 4 | 6 | undefined = family === "ip" ? 4 : family === "ip6" ? 6 : undefined;
  const fail = (why: string): never => {
    throw new Unsupported(why);
  };
  for (let i = 0; i < exprs.length; ) {
    const mc = printCtMark(exprs, i) ?? printMarkOrCt(exprs, i);
    if (mc !== undefined) {
      out.push(mc.text);
      i += mc.took;
      continue;
    }
    const e = exprs[i] as Expr;
    const n1 = exprs[i + 1];
    const n2 = exprs[i + 2];
    const n3 = exprs[i + 3];
    if (
      e.k === "meta" &&
      e.key === "nfproto" &&
      family === "inet" &&
      n1?.k === "cmp" &&
      n1.op === "eq" &&
      n1.data.length === 1 &&
      n2?.k === "payload" &&
      n2.base === "nh"
    ) {
      l3 = n1.data[0] === C.NFPROTO.ip ? 4 : n1.data[0] === C.NFPROTO.ip6 ? 6 : fail("nfproto");
      i += 2;
    } else if (e.k === "payload" && e.base === "nh" && l3 !== undefined) {
      const full = l3 === 4 ? 4 : 16;
      const field = Object.entries(ADDR_OFFSET[l3]).find(([, o]) => o === e.offset)?.[0] ?? fail("payload offset");
      let prefix = e.len * 8;
      let cmp = n1;
      if (n1?.k === "bitwise") {
        if (e.len !== full || n1.mask.length !== full || n1.xor.some((b) => b !== 0)) fail("bitwise");
        prefix = maskPrefix(n1.mask) ?? fail("mask");
        cmp = n2;
        i++;
      }
      if (cmp?.k !== "cmp" || e.len > full || e.len === 0) fail("address match");
      const data = (cmp as Extract<Expr, { k: "cmp" }>).data;
      out.push(
        `${l3 === 4 ? "ip" : "ip6"} ${field} ${op(cmp)}${addrText(data, l3)}${prefix === full * 8 ? "" : `/${prefix}`}`,
      );
      i += 2;
    } else if (
      e.k === "meta" &&
      e.key === "l4proto" &&
      n1?.k === "cmp" &&
      n1.op === "eq" &&
      n1.data.length === 1 &&
      n2?.k === "payload" &&
      n2.base === "th" &&
      n2.len === 2 &&
      n3?.k === "cmp"
    ) {
      const proto = (Object.entries(C.L4PROTO).find(([, v]) => v === n1.data[0])?.[0] ?? fail("l4proto")) as string;
      const field = Object.entries(PORT_OFFSET).find(([, o]) => o === n2.offset)?.[0] ?? fail("port offset");
      out.push(`${proto} ${field} ${op(n3)}${be16(n3.data)}`);
      i += 4;
    } else if (
      e.k === "fib" &&
      e.flags === C.FIB_F_DADDR &&
      e.result === C.FIB_RESULT_ADDRTYPE &&
      n1?.k === "cmp" &&
      n1.data.length === 4
    ) {
      const type = new DataView(n1.data.buffer, n1.data.byteOffset, 4).getUint32(0, true);
      out.push(`fib daddr type ${op(n1)}${RTN_TYPES[type] ?? fail("fib type")}`);
      i += 2;
    } else if (
      e.k === "meta" &&
      (e.key === "iifname" || e.key === "oifname") &&
      n1?.k === "cmp" &&
      n1.data.length === 16
    ) {
      const nul = n1.data.indexOf(0);
      if (nul <= 0 || n1.data.subarray(nul).some((b) => b !== 0)) fail("interface name");
      out.push(`${e.key} ${op(n1)}"${new TextDecoder().decode(n1.data.subarray(0, nul))}"`);
      i += 2;
    } else if (
      e.k === "payload" &&
      e.base === "ll" &&
      family === "bridge" &&
      e.len === 6 &&
      (e.offset === 0 || e.offset === 6) &&
      n1?.k === "cmp" &&
      n1.data.length === 6
    ) {
      out.push(
        `ether ${e.offset === 6 ? "saddr" : "daddr"} ${op(n1)}${[...n1.data].map((b) => b.toString(16).padStart(2, "0")).join(":")}`,
      );
      i += 2;
    } else if (e.k === "immediate" && e.dreg === 1 && (family === "ip" || family === "ip6")) {
      const fam = family === "ip" ? 4 : 6;
      const portImm = n1?.k === "immediate" && n1.dreg === 2 ? n1 : undefined;
      const natExpr = portImm === undefined ? n1 : n2;
      if (natExpr?.k !== "nat") return fail("nat");
      const nat = natExpr;
      if (nat.family !== fam || nat.addr !== 1 || (portImm === undefined) !== (nat.proto === undefined)) fail("nat");
      if (
        e.data.length !== (fam === 4 ? 4 : 16) ||
        (portImm !== undefined && (portImm.data.length !== 2 || nat.proto !== 2))
      )
        fail("nat data");
      const addr = addrText(e.data, fam);
      const where = portImm === undefined ? addr : `${fam === 6 ? `[${addr}]` : addr}:${be16(portImm.data)}`;
      out.push(`${nat.type} to ${where}`);
      i += portImm === undefined ? 2 : 3;
    } else if (e.k === "counter") {
      out.push("counter");
      i++;
    } else if (e.k === "masq") {
      out.push("masquerade");
      i++;
    } else if (e.k === "verdict") {
      out.push(e.chain === undefined ? e.verdict : `${e.verdict} ${e.chain}`);
      i++;
    } else {
      fail(`expression ${e.k === "unknown" ? e.name : e.k}`);
    }
  }
  return out.join(" ");
}
