/**
 * nft rule text (as `nft list` prints it, ops.ts NftRuleAdd) compiled to the expressions
 * nft 1.0.6 sends for it, for the statements CNI uses: `ip`/`ip6` `saddr`/`daddr` with
 * prefixes, `tcp`/`udp`/`sctp` `dport`/`sport`, `fib daddr type local`, `iifname`/`oifname`,
 * `ether saddr`/`daddr` (bridge), `meta mark` (match, `&` mask, `set`) and `ct state`
 * (marks.ts), `ct status`/`direction`/`mark`/`original`/`reply` and mark arithmetic
 * (ct-mark.ts), `counter`, `masquerade`, `dnat`/`snat to`, and the verdicts. Anything else
 * throws {@link Unsupported}: the caller then lets `nft` do the whole transaction, so an
 * unusual `conditionsV4` still works.
 */
import { formatAddr, parseAddr } from "@tscni/spec/ipnet";
import * as C from "./const.ts";
import type { Expr } from "./expr.ts";
import { compileCt, compileMarkSet } from "./ct-mark.ts";
import { compileCtState, compileMark } from "./marks.ts";

/** A rule or statement outside the compiled subset. */
export class Unsupported extends Error {
  constructor(what: string) {
    super(`nfnetlink: unsupported: ${what}`);
    this.name = "Unsupported";
  }
}

/** The address bytes of `text` of family `family`. */
export function addrBytes(text: string, family: 4 | 6): Uint8Array {
  const ip = parseAddr(text);
  if (ip === undefined || ip.family !== family || formatAddr(ip) !== text) throw new Unsupported(`address ${text}`);
  const n = family === 4 ? 4 : 16;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Number((ip.value >> BigInt(8 * (n - 1 - i))) & 0xffn);
  return out;
}

/** Splits on blanks, keeping a double-quoted string (quotes included) as one token. */
export function tokens(text: string): string[] {
  return text.match(/"[^"]*"|\S+/g) ?? [];
}

/** The offsets of the address fields in the IPv4 and IPv6 headers. */
export const ADDR_OFFSET = { 4: { saddr: 12, daddr: 16 }, 6: { saddr: 8, daddr: 24 } } as const;
/** The transport header's port offsets. */
export const PORT_OFFSET = { sport: 0, dport: 2 } as const;
/** fib `type` names by RTN_* number. */
export const RTN_TYPES = [
  "unspec",
  "unicast",
  "local",
  "broadcast",
  "anycast",
  "multicast",
  "blackhole",
  "unreachable",
  "prohibit",
] as const;

const be16 = (n: number): Uint8Array => Uint8Array.of((n >> 8) & 0xff, n & 0xff);
const le32 = (n: number): Uint8Array => Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);

function port(text: string | undefined): number {
  if (text === undefined || !/^\d+$/.test(text) || Number(text) > 65535) throw new Unsupported(`port ${text}`);
  return Number(text);
}

/** The expressions of one address match, as nft lays it out for the prefix. */
function addrMatch(family: 4 | 6, field: "saddr" | "daddr", op: "eq" | "neq", text: string): Expr[] {
  const [addr = "", len] = text.split("/");
  const full = family === 4 ? 4 : 16;
  const bytes = addrBytes(addr, family);
  const prefix = len === undefined ? full * 8 : Number(len);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > full * 8) throw new Unsupported(`prefix ${text}`);
  const mask = new Uint8Array(full).map((_, i) =>
    prefix >= 8 * (i + 1) ? 0xff : prefix <= 8 * i ? 0 : (0xff << (8 - (prefix - 8 * i))) & 0xff,
  );
  if (bytes.some((b, i) => (b & (mask[i] as number)) !== b)) throw new Unsupported(`host bits in ${text}`);
  const offset = ADDR_OFFSET[family][field];
  if (prefix === full * 8)
    return [
      { k: "payload", base: "nh", offset, len: full, dreg: 1 },
      { k: "cmp", op, sreg: 1, data: bytes },
    ];
  if (prefix > 0 && prefix % 8 === 0) {
    return [
      { k: "payload", base: "nh", offset, len: prefix / 8, dreg: 1 },
      { k: "cmp", op, sreg: 1, data: bytes.slice(0, prefix / 8) },
    ];
  }
  return [
    { k: "payload", base: "nh", offset, len: full, dreg: 1 },
    { k: "bitwise", sreg: 1, dreg: 1, mask, xor: new Uint8Array(full) },
    { k: "cmp", op, sreg: 1, data: bytes },
  ];
}

/** `A`, `A:P`, `[A6]:P` of a `dnat to` / `snat to`. */
function natTarget(text: string, family: 4 | 6): { addr: Uint8Array; port?: number } {
  const m =
    family === 6
      ? (/^\[([^\]]+)\](?::(\d+))?$/.exec(text) ?? /^([^[\]]+)()$/.exec(text))
      : /^([^:]+)(?::(\d+))?$/.exec(text);
  if (m === null) throw new Unsupported(`nat target ${text}`);
  return { addr: addrBytes(m[1] as string, family), ...(m[2] !== undefined && m[2] !== "" && { port: port(m[2]) }) };
}

/** Compiles one rule's text for a table of `family` into expressions. */
export function compileRule(family: string, text: string): Expr[] {
  const t = tokens(text);
  const out: Expr[] = [];
  let l3: 4 | 6 | undefined = family === "ip" ? 4 : family === "ip6" ? 6 : undefined;
  let i = 0;
  const next = (): string | undefined => t[i++];
  const negated = (): "eq" | "neq" => (t[i] === "!=" ? (i++, "neq") : "eq");
  while (i < t.length) {
    const w = next() as string;
    if ((w === "ip" || w === "ip6") && (t[i] === "saddr" || t[i] === "daddr")) {
      const want = w === "ip" ? 4 : 6;
      if (family === "inet" && l3 !== want) {
        out.push(
          { k: "meta", key: "nfproto", dreg: 1 },
          { k: "cmp", op: "eq", sreg: 1, data: Uint8Array.of(want === 4 ? C.NFPROTO.ip : C.NFPROTO.ip6) },
        );
        l3 = want;
      }
      if (l3 !== want) throw new Unsupported(`${w} match in a ${family} table`);
      const field = next() as "saddr" | "daddr";
      const op = negated();
      out.push(...addrMatch(want, field, op, next() ?? ""));
    } else if (
      (w === "tcp" || w === "udp" || w === "sctp") &&
      (t[i] === "dport" || t[i] === "sport") &&
      family !== "bridge"
    ) {
      const field = next() as "dport" | "sport";
      const op = negated();
      const n = port(next());
      out.push(
        { k: "meta", key: "l4proto", dreg: 1 },
        { k: "cmp", op: "eq", sreg: 1, data: Uint8Array.of(C.L4PROTO[w]) },
        { k: "payload", base: "th", offset: PORT_OFFSET[field], len: 2, dreg: 1 },
        { k: "cmp", op, sreg: 1, data: be16(n) },
      );
    } else if (w === "fib" && t[i] === "daddr" && t[i + 1] === "type" && family !== "bridge") {
      i += 2;
      const op = negated();
      const type = RTN_TYPES.indexOf((next() ?? "") as (typeof RTN_TYPES)[number]);
      if (type < 0) throw new Unsupported("fib type");
      out.push(
        { k: "fib", flags: C.FIB_F_DADDR, result: C.FIB_RESULT_ADDRTYPE, dreg: 1 },
        { k: "cmp", op, sreg: 1, data: le32(type) },
      );
    } else if (w === "iifname" || w === "oifname") {
      const op = negated();
      const name = /^"([^"*\\]{1,15})"$/.exec(next() ?? "")?.[1];
      if (name === undefined) throw new Unsupported(`${w} value`);
      const data = new Uint8Array(16);
      data.set(new TextEncoder().encode(name));
      out.push({ k: "meta", key: w, dreg: 1 }, { k: "cmp", op, sreg: 1, data });
    } else if (w === "ether" && family === "bridge" && (t[i] === "saddr" || t[i] === "daddr")) {
      const offset = next() === "saddr" ? 6 : 0;
      const op = negated();
      const mac = next() ?? "";
      if (!/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(mac)) throw new Unsupported(`mac ${mac}`);
      out.push(
        { k: "payload", base: "ll", offset, len: 6, dreg: 1 },
        { k: "cmp", op, sreg: 1, data: Uint8Array.from(mac.split(":").map((h) => Number.parseInt(h, 16))) },
      );
    } else if (w === "meta" && t[i] === "mark") {
      const m = compileMarkSet(t, i + 1) ?? compileMark(t, i + 1);
      out.push(...m.exprs);
      i = m.next;
    } else if (w === "ct" && t[i] === "state" && t[i + 1] !== "!=") {
      const m = compileCtState(t, i + 1);
      out.push(...m.exprs);
      i = m.next;
    } else if (w === "ct" && t[i] !== "state") {
      const m = compileCt(family, t, i);
      out.push(...m.exprs);
      i = m.next;
    } else if (w === "counter") {
      out.push({ k: "counter" });
    } else if (w === "masquerade" && family !== "bridge") {
      out.push({ k: "masq" });
    } else if ((w === "dnat" || w === "snat") && t[i] === "to" && (family === "ip" || family === "ip6")) {
      i++;
      const fam = family === "ip" ? 4 : 6;
      const target = natTarget(next() ?? "", fam);
      out.push({ k: "immediate", dreg: 1, data: target.addr });
      if (target.port !== undefined) out.push({ k: "immediate", dreg: 2, data: be16(target.port) });
      out.push({ k: "nat", type: w, family: fam, addr: 1, ...(target.port !== undefined && { proto: 2 }) });
    } else if (w === "accept" || w === "drop" || w === "return" || w === "continue") {
      out.push({ k: "verdict", verdict: w });
    } else if (w === "jump" || w === "goto") {
      const chain = next();
      if (chain === undefined || !/^[A-Za-z0-9_.-]+$/.test(chain)) throw new Unsupported(`${w} target`);
      out.push({ k: "verdict", verdict: w, chain });
    } else {
      throw new Unsupported(`statement "${w}"`);
    }
    const last = out[out.length - 1];
    if (last?.k === "verdict" && i < t.length) throw new Unsupported("statements after a verdict");
  }
  return out;
}
