/**
 * `meta mark` and `ct state` in nft's own words and back (compile.ts and print.ts call
 * these): the forms `nft list` 1.0.6 prints, `meta mark 0x00002000`, `meta mark & 0x00002000
 * == 0x00002000`, `meta mark set 0x00002000` and `ct state established,related`, compiled to
 * the expressions nft sends for them (fixtures/marks.*), so a user's conditions or a mark
 * need not go through `nft`. Values are host-endian 32-bit registers, as nft's are.
 */
import { Unsupported } from "./compile.ts";
import * as C from "./const.ts";
import type { Expr } from "./expr.ts";

const le32 = (n: number): Uint8Array => Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);
const fromLe32 = (d: Uint8Array): number => new DataView(d.buffer, d.byteOffset, 4).getUint32(0, true);
const hex = (n: number): string => `0x${n.toString(16).padStart(8, "0")}`;
const ZERO = new Uint8Array(4);

/** A mark as nft prints it (`0x` and eight hex digits); other spellings go through `nft`. */
function mark(text: string | undefined): number {
  if (text === undefined || !/^0x[0-9a-f]{8}$/.test(text)) throw new Unsupported(`mark ${text}`);
  return Number.parseInt(text.slice(2), 16);
}

/** `meta mark ...` from token `i` (just after `mark`); the expressions and the next index. */
export function compileMark(t: readonly string[], i: number): { exprs: Expr[]; next: number } {
  if (t[i] === "set")
    return {
      exprs: [
        { k: "immediate", dreg: 1, data: le32(mark(t[i + 1])) },
        { k: "metaSet", key: "mark", sreg: 1 },
      ],
      next: i + 2,
    };
  const load: Expr = { k: "meta", key: "mark", dreg: 1 };
  if (t[i] === "&") {
    if (t[i + 2] !== "==") throw new Unsupported("meta mark & without ==");
    const mask = le32(mark(t[i + 1]));
    return {
      exprs: [
        load,
        { k: "bitwise", sreg: 1, dreg: 1, mask, xor: ZERO.slice(), op: "bool" },
        { k: "cmp", op: "eq", sreg: 1, data: le32(mark(t[i + 3])) },
      ],
      next: i + 4,
    };
  }
  const op = t[i] === "!=" ? "neq" : "eq";
  const at = op === "neq" ? i + 1 : i;
  return { exprs: [load, { k: "cmp", op, sreg: 1, data: le32(mark(t[at])) }], next: at + 1 };
}

/** `ct state a,b` from token `i` (just after `state`), names in nft's order only. */
export function compileCtState(t: readonly string[], i: number): { exprs: Expr[]; next: number } {
  const names = (t[i] ?? "").split(",");
  const bits = names.map((n) => (C.CT_STATES as Record<string, number>)[n] ?? 0);
  if (bits.some((b, k) => b === 0 || (k > 0 && b <= (bits[k - 1] as number))))
    throw new Unsupported(`ct state ${t[i]}`);
  return {
    exprs: [
      { k: "ct", key: "state", dreg: 1 },
      { k: "bitwise", sreg: 1, dreg: 1, mask: le32(bits.reduce((a, b) => a | b, 0)), xor: ZERO.slice() },
      { k: "cmp", op: "neq", sreg: 1, data: ZERO.slice() },
    ],
    next: i + 1,
  };
}

const zero = (d: Uint8Array): boolean => d.every((b) => b === 0);

/**
 * `ct state` or `ct status` as nft prints it from the bitwise and compare that follow the
 * ct load: the names of the bits set, in `bits`' order; anything else is Unsupported.
 */
export function printCtBits(
  key: "state" | "status",
  bits: Readonly<Record<string, number>>,
  n1: Expr | undefined,
  n2: Expr | undefined,
): { text: string; took: number } {
  if (
    n1?.k !== "bitwise" ||
    n1.mask.length !== 4 ||
    !zero(n1.xor) ||
    n2?.k !== "cmp" ||
    n2.op !== "neq" ||
    !zero(n2.data)
  )
    throw new Unsupported(`ct ${key}`);
  let mask = fromLe32(n1.mask);
  const names = Object.entries(bits).filter(([, b]) => (mask & b) !== 0);
  for (const [, b] of names) mask &= ~b;
  if (mask !== 0 || names.length === 0) throw new Unsupported(`ct ${key} bits`);
  return { text: `ct ${key} ${names.map(([n]) => n).join(",")}`, took: 3 };
}

/** The text of a mark or ct-state statement starting at `exprs[i]`, and how many it took; undefined if none. */
export function printMarkOrCt(exprs: readonly Expr[], i: number): { text: string; took: number } | undefined {
  const [e, n1, n2] = [exprs[i], exprs[i + 1], exprs[i + 2]];
  if (e?.k === "immediate" && e.dreg === 1 && e.data.length === 4 && n1?.k === "metaSet" && n1.sreg === 1)
    return { text: `meta mark set ${hex(fromLe32(e.data))}`, took: 2 };
  if (e?.k === "meta" && e.key === "mark") {
    if (n1?.k === "cmp" && n1.data.length === 4)
      return { text: `meta mark ${n1.op === "neq" ? "!= " : ""}${hex(fromLe32(n1.data))}`, took: 2 };
    if (
      n1?.k === "bitwise" &&
      n1.mask.length === 4 &&
      zero(n1.xor) &&
      n2?.k === "cmp" &&
      n2.op === "eq" &&
      n2.data.length === 4
    )
      return { text: `meta mark & ${hex(fromLe32(n1.mask))} == ${hex(fromLe32(n2.data))}`, took: 3 };
    throw new Unsupported("meta mark");
  }
  if (e?.k === "ct" && e.key === "state" && e.dir === undefined) return printCtBits("state", C.CT_STATES, n1, n2);
  return undefined;
}
