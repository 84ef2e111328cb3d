/**
 * IP addresses as (family, bigint) pairs: parsing and printing with Go's `net.ParseIP` and
 * `net.IP.String()` rules (the file names on disk must match the reference's exactly), and
 * the arithmetic of the reference's `pkg/ip` (NextIP, PrevIP, Cmp).
 */

/** An address family: 4 or 6. */
export type Family = 4 | 6;

/** An IP address in canonical form: IPv4-mapped IPv6 addresses are IPv4 (`canonicalizeIP`). */
export interface IP {
  readonly family: Family;
  readonly value: bigint;
}

/** The number of bits of an address of `family`. */
export function familyBits(family: Family): number {
  return family === 4 ? 32 : 128;
}

function parseV4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // Go rejects leading zeros since 1.17 ("010.0.0.1" is not an address).
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseGroups(s: string): bigint[] | undefined {
  if (s === "") return [];
  const out: bigint[] = [];
  for (const g of s.split(":")) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    out.push(BigInt(`0x${g}`));
  }
  return out;
}

function parseV6(text: string): bigint | undefined {
  let head = text;
  const tail: bigint[] = [];
  if (text.includes(".")) {
    const cut = text.lastIndexOf(":");
    const v4 = parseV4(text.slice(cut + 1));
    if (cut < 0 || v4 === undefined) return undefined;
    tail.push(v4 >> 16n, v4 & 0xffffn);
    head = text.slice(0, cut + 1);
    head = head.endsWith("::") ? head : head.slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const left = parseGroups(halves[0] ?? "");
  const right = halves.length === 2 ? parseGroups(halves[1] ?? "") : [];
  if (left === undefined || right === undefined) return undefined;
  const given = left.length + right.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const words = [...left, ...Array<bigint>(8 - given).fill(0n), ...right, ...tail];
  return words.reduce((acc, w) => (acc << 16n) | w, 0n);
}

/**
 * Parses a textual IPv4 or IPv6 address (Go's `net.ParseIP`), canonicalised: an
 * IPv4-mapped IPv6 address comes back as IPv4, as `canonicalizeIP` does upstream.
 *
 * @example parseIP("::ffff:10.0.0.1") // { family: 4, value: 167772161n }
 */
export function parseIP(text: string): IP | undefined {
  if (!text.includes(":")) {
    const value = parseV4(text);
    return value === undefined ? undefined : { family: 4, value };
  }
  const value = parseV6(text);
  if (value === undefined) return undefined;
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

/** True when `text` is written as IPv6 (Go keeps a 16-byte mask for such a CIDR). */
export function isV6Text(text: string): boolean {
  return text.includes(":");
}

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
}

/**
 * Prints an address as Go's `net.IP.String()`: dotted IPv4; IPv6 in lower-case hex with
 * the longest run (two or more, first on ties) of zero groups written `::`.
 *
 * @example formatIP(parseIP("2001:db8:0:0:1:0:0:1")!) // "2001:db8::1:0:0:1"
 */
export function formatIP(ip: IP): string {
  if (ip.family === 4) return formatV4(ip.value);
  if (ip.value >> 32n === 0xffffn) return formatV4(ip.value & 0xffffffffn);
  const groups = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt(112 - 16 * i)) & 0xffffn));
  let bestAt = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [bestAt, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (gs: number[]): string => gs.map((g) => g.toString(16)).join(":");
  if (bestAt < 0) return hex(groups);
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLen))}`;
}

/** Compares two addresses of one family: <0, 0, >0 (`ip.Cmp`); IPv4 sorts before IPv6. */
export function compareIP(a: IP, b: IP): number {
  if (a.family !== b.family) return a.family - b.family;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/** True when both are the same address. */
export function ipEqual(a: IP, b: IP): boolean {
  return a.family === b.family && a.value === b.value;
}

/** The next address, or undefined past the family's last (`ip.NextIP`). */
export function nextIP(ip: IP): IP | undefined {
  const value = ip.value + 1n;
  return value >> BigInt(familyBits(ip.family)) === 0n ? { family: ip.family, value } : undefined;
}

/** The previous address, or undefined before the family's first (`ip.PrevIP`). */
export function prevIP(ip: IP): IP | undefined {
  return ip.value === 0n ? undefined : { family: ip.family, value: ip.value - 1n };
}

/** A map key for an address (its canonical text). */
export function ipKey(ip: IP): string {
  return formatIP(ip);
}
