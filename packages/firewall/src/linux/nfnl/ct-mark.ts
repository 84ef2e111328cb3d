/**
 * Conntrack keys beyond `ct state` and mark arithmetic, in nft's own words and back
 * (compile.ts and print.ts call these), as `nft list` 1.0.6 prints them: `ct status
 * snat,dnat`, `ct direction original`, `ct mark [!=] 0x00000001`, `ct original ip saddr
 * 198.18.0.1` (and `reply`, `daddr`, `ip6`), `meta mark set meta mark | 0x00002000` (and
 * `&`, `^`), `meta mark set ct mark` and `ct mark set meta mark`, compiled to the
 * expressions nft sends for them (fixtures/ct-mark.*). Our own plugins render none of
 * these; a user's portmap conditions may, and then need not go through `nft`.
 */
import { formatAddr } from "@tscni/spec/ipnet";
import { addrBytes, Unsupported } from "./compile.ts";
import * as C from "./const.ts";
import type { Expr } from "./expr.ts";
import { printCtBits } from "./marks.ts";

const le32 = (n: number): Uint8Array => Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);
const fromLe32 = (d: Uint8Array): number => new DataView(d.buffer, d.byteOffset, 4).getUint32(0, true);
const hex = (n: number): string => `0x${(n >>> 0).toString(16).padStart(8, "0")}`;
const ZERO = (): Uint8Array => new Uint8Array(4);

/** A 32-bit value as nft prints it (`0x` and eight hex digits); other spellings go through `nft`. */
function value(text: string | undefined): number {
  if (text === undefined || !/^0x[0-9a-f]{8}$/.test(text)) throw new Unsupported(`value ${text}`);
  return Number.parseInt(text.slice(2), 16);
}

/** Names of a bit set in `table`'s order, comma-joined, as nft writes `ct status`. */
function bitsOf(text: string | undefined, table: Readonly<Record<string, number>>): number {
  const bits = (text ?? "").split(",").map((n) => table[n] ?? 0);
  if (bits.some((b, k) => b === 0 || (k > 0 && b <= (bits[k - 1] as number)))) throw new Unsupported(`bits ${text}`);
  return bits.reduce((a, b) => a | b, 0);
}

/** The mark operators of `meta mark set meta mark OP V`: the bitwise mask and xor nft sends. */
const MARK_OPS = {
  "|": (v: number) => ({ mask: ~v >>> 0, xor: v }),
  "&": (v: number) => ({ mask: v, xor: 0 }),
  "^": (v: number) => ({ mask: 0xffffffff, xor: v }),
} as const;

/** `meta mark set meta mark OP V` or `meta mark set ct mark` from token `i` (just after `mark`), or undefined. */
export function compileMarkSet(t: readonly string[], i: number): { exprs: Expr[]; next: number } | undefined {
  if (t[i] !== "set") return undefined;
  const set: Expr = { k: "metaSet", key: "mark", sreg: 1 };
  if (t[i + 1] === "ct" && t[i + 2] === "mark") return { exprs: [{ k: "ct", key: "mark", dreg: 1 }, set], next: i + 3 };
  if (t[i + 1] !== "meta" || t[i + 2] !== "mark") return undefined;
  const op = MARK_OPS[t[i + 3] as keyof typeof MARK_OPS];
  if (op === undefined) throw new Unsupported(`meta mark set meta mark ${t[i + 3]}`);
  const { mask, xor } = op(value(t[i + 4]));
  return {
    exprs: [
      { k: "meta", key: "mark", dreg: 1 },
      // nft names the operation (NFTA_BITWISE_OP, NFT_BITWISE_BOOL) here too.
      { k: "bitwise", sreg: 1, dreg: 1, mask: le32(mask), xor: le32(xor), op: "bool" },
      set,
    ],
    next: i + 5,
  };
}

/** `ct KEY ...` (any key but `state`) from token `i` (just after `ct`) in a table of `family`. */
export function compileCt(family: string, t: readonly string[], i: number): { exprs: Expr[]; next: number } {
  const w = t[i];
  if (w === "status" && t[i + 1] !== "!=") {
    return {
      exprs: [
        { k: "ct", key: "status", dreg: 1 },
        { k: "bitwise", sreg: 1, dreg: 1, mask: le32(bitsOf(t[i + 1], C.CT_STATUS)), xor: ZERO() },
        { k: "cmp", op: "neq", sreg: 1, data: ZERO() },
      ],
      next: i + 2,
    };
  }
  if (w === "direction" && (t[i + 1] === "original" || t[i + 1] === "reply"))
    return {
      exprs: [
        { k: "ct", key: "direction", dreg: 1 },
        { k: "cmp", op: "eq", sreg: 1, data: Uint8Array.of(C.CT_DIR[t[i + 1] as "original" | "reply"]) },
      ],
      next: i + 2,
    };
  if (w === "mark" && t[i + 1] === "set" && t[i + 2] === "meta" && t[i + 3] === "mark")
    return {
      exprs: [
        { k: "meta", key: "mark", dreg: 1 },
        { k: "ctSet", key: "mark", sreg: 1 },
      ],
      next: i + 4,
    };
  if (w === "mark" && t[i + 1] !== "set") {
    const op = t[i + 1] === "!=" ? "neq" : "eq";
    const at = op === "neq" ? i + 2 : i + 1;
    return {
      exprs: [
        { k: "ct", key: "mark", dreg: 1 },
        { k: "cmp", op, sreg: 1, data: le32(value(t[at])) },
      ],
      next: at + 1,
    };
  }
  const l3 = t[i + 1];
  const field = t[i + 2];
  if (
    (w === "original" || w === "reply") &&
    (l3 === "ip" || l3 === "ip6") &&
    (field === "saddr" || field === "daddr") &&
    (family === "inet" || family === (l3 === "ip" ? "ip" : "ip6"))
  ) {
    const op = t[i + 3] === "!=" ? "neq" : "eq";
    const at = op === "neq" ? i + 4 : i + 3;
    const key = `${field === "saddr" ? "src" : "dst"}_ip${l3 === "ip6" ? "6" : ""}` as keyof typeof C.CT_KEY;
    return {
      exprs: [
        { k: "ct", key, dreg: 1, dir: w },
        { k: "cmp", op, sreg: 1, data: addrBytes(t[at] ?? "", l3 === "ip" ? 4 : 6) },
      ],
      next: at + 1,
    };
  }
  throw new Unsupported(`ct ${w}`);
}

/** The text of a statement of this file starting at `exprs[i]`, and how many it took; undefined if none. */
export function printCtMark(exprs: readonly Expr[], i: number): { text: string; took: number } | undefined {
  const [e, n1, n2] = [exprs[i], exprs[i + 1], exprs[i + 2]];
  const setMark = (x: Expr | undefined): boolean => x?.k === "metaSet" && x.key === "mark" && x.sreg === 1;
  if (e?.k === "meta" && e.key === "mark" && e.dreg === 1) {
    if (n1?.k === "ctSet" && n1.sreg === 1) return { text: "ct mark set meta mark", took: 2 };
    if (n1?.k === "bitwise" && n1.mask.length === 4 && n1.xor.length === 4 && setMark(n2)) {
      const [mask, xor] = [fromLe32(n1.mask), fromLe32(n1.xor)];
      // nft's own choice of operator for a mask and xor pair.
      const text =
        xor === 0
          ? `& ${hex(mask)}`
          : mask === 0xffffffff
            ? `^ ${hex(xor)}`
            : mask === ~xor >>> 0
              ? `| ${hex(xor)}`
              : undefined;
      if (text === undefined) throw new Unsupported("meta mark arithmetic");
      return { text: `meta mark set meta mark ${text}`, took: 3 };
    }
    return undefined;
  }
  if (e?.k !== "ct" || e.key === "state") return undefined;
  if (e.key === "mark" && e.dir === undefined && setMark(n1)) return { text: "meta mark set ct mark", took: 2 };
  if (e.key === "status" && e.dir === undefined) return printCtBits("status", C.CT_STATUS, n1, n2);
  if (n1?.k !== "cmp" || n1.sreg !== e.dreg) throw new Unsupported(`ct ${e.key}`);
  const neq = n1.op === "neq" ? "!= " : "";
  if (e.key === "direction" && e.dir === undefined && n1.op === "eq" && n1.data.length === 1) {
    const dir = Object.entries(C.CT_DIR).find(([, v]) => v === n1.data[0])?.[0];
    if (dir !== undefined) return { text: `ct direction ${dir}`, took: 2 };
  }
  if (e.key === "mark" && e.dir === undefined && n1.data.length === 4)
    return { text: `ct mark ${neq}${hex(fromLe32(n1.data))}`, took: 2 };
  if (e.dir !== undefined && e.key !== "direction" && e.key !== "status" && e.key !== "mark") {
    const v6 = e.key.endsWith("6");
    if (n1.data.length === (v6 ? 16 : 4)) {
      let n = 0n;
      for (const b of n1.data) n = (n << 8n) | BigInt(b);
      return {
        text: `ct ${e.dir} ${v6 ? "ip6" : "ip"} ${e.key.startsWith("src") ? "saddr" : "daddr"} ${neq}${formatAddr({ family: v6 ? 6 : 4, value: n })}`,
        took: 2,
      };
    }
  }
  throw new Unsupported(`ct ${e.key}`);
}
