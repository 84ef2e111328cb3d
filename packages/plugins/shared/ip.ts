/**
 * Small IP address arithmetic the plugins need (gateways, masks, host routes), on byte
 * arrays so IPv4 and IPv6 share one code path. Text forms follow Go's `net.IP.String()`
 * (RFC 5952 for IPv6) so results read like the reference's.
 */

/** An address: its family and its 4 or 16 bytes. */
export interface Ip {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

/** An address with a prefix length; `ip` keeps the host bits. */
export interface Cidr {
  readonly ip: Ip;
  readonly prefix: number;
}

function parseV4(text: string): Uint8Array | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    out[i] = n;
  }
  return out;
}

function parseV6(text: string): Uint8Array | undefined {
  let head = text;
  const tail4: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".") && lastColon >= 0) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail4.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    // "::ffff:1.2.3.4" keeps "::ffff"; "::1.2.3.4" keeps "::".
    const prefix = text.slice(0, lastColon + 1);
    head = prefix.endsWith("::") ? prefix : prefix.slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const group = (s: string): number[] | undefined => {
    if (s === "") return [];
    const out: number[] = [];
    for (const g of s.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = group(halves[0] ?? "");
  const right = halves.length === 2 ? group(halves[1] ?? "") : [];
  if (left === undefined || right === undefined) return undefined;
  const given = left.length + right.length + tail4.length;
  if (halves.length === 1 && given !== 8) return undefined;
  if (halves.length === 2 && given > 7) return undefined;
  const words = [...left, ...new Array<number>(8 - given).fill(0), ...right, ...tail4];
  const out = new Uint8Array(16);
  words.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** Parses a textual IPv4 or IPv6 address; undefined when it is not one. */
export function parseIp(text: string): Ip | undefined {
  if (text.includes(":")) {
    const bytes = parseV6(text);
    return bytes === undefined ? undefined : { family: 6, bytes };
  }
  const bytes = parseV4(text);
  return bytes === undefined ? undefined : { family: 4, bytes };
}

/** Parses `addr/prefix`, keeping the host bits; undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const ip = parseIp(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (ip === undefined || !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > maxPrefix(ip.family)) return undefined;
  return { ip, prefix };
}

/** 32 for IPv4, 128 for IPv6. */
export function maxPrefix(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

/** The textual form (Go's `net.IP.String()`: dotted quad, or RFC 5952 IPv6). */
export function formatIp(ip: Ip): string {
  const b = ip.bytes;
  if (ip.family === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  const words = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]): string => ws.map((w) => w.toString(16)).join(":");
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLen))}`;
}

/** `addr/prefix` text. */
export function formatCidr(c: Cidr): string {
  return `${formatIp(c.ip)}/${c.prefix}`;
}

/** The address with its host bits cleared. */
export function networkOf(c: Cidr): Ip {
  const out = new Uint8Array(c.ip.bytes);
  for (let bit = c.prefix; bit < out.length * 8; bit++) {
    out[bit >> 3]! &= ~(0x80 >> (bit & 7));
  }
  return { family: c.ip.family, bytes: out };
}

/** The subnet of a CIDR in canonical form, e.g. `198.18.0.0/24` for `198.18.0.5/24`. */
export function subnetText(c: Cidr): string {
  return formatCidr({ ip: networkOf(c), prefix: c.prefix });
}

/** The next address (wraps at the top), as Go's `ip.NextIP`. */
export function nextIp(ip: Ip): Ip {
  const out = new Uint8Array(ip.bytes);
  for (let i = out.length - 1; i >= 0; i--) {
    out[i] = (out[i]! + 1) & 0xff;
    if (out[i] !== 0) break;
  }
  return { family: ip.family, bytes: out };
}

/** True when `ip` lies inside the subnet of `c`. */
export function contains(c: Cidr, ip: Ip): boolean {
  if (ip.family !== c.ip.family) return false;
  return sameIp(networkOf(c), networkOf({ ip, prefix: c.prefix }));
}

/** Byte-wise equality of two addresses. */
export function sameIp(a: Ip, b: Ip): boolean {
  return a.family === b.family && a.bytes.every((v, i) => v === b.bytes[i]);
}

/** The host route form of an address: `/32` or `/128`. */
export function hostCidr(ip: Ip): string {
  return `${formatIp(ip)}/${maxPrefix(ip.family)}`;
}

/** Canonical text of an address given as text (`2001:DB8:0::1` -> `2001:db8::1`); the input when it does not parse. */
export function canonicalIp(text: string): string {
  const ip = parseIp(text);
  return ip === undefined ? text : formatIp(ip);
}

/** Canonical text of a CIDR given as text; the input when it does not parse. */
export function canonicalCidr(text: string): string {
  const c = parseCidr(text);
  return c === undefined ? text : formatCidr(c);
}

/** The default route destination of a family: `0.0.0.0/0` or `::/0`. */
export function defaultDst(family: 4 | 6): string {
  return family === 4 ? "0.0.0.0/0" : "::/0";
}
