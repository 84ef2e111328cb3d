/**
 * IP addresses as (family, bigint) pairs for arithmetic, on top of the Go-exact text rules
 * of `../ip.ts`. Two readings of the text, both Go's:
 * - `parseIP`/`formatIP` are `net.ParseIP` + `To4` and `net.IP.String()`: an IPv4-mapped
 *   address (`::ffff:1.2.3.4`) is IPv4. What the protocol, the results and IPAM use.
 * - `parseAddr`/`formatAddr` are `netip.ParseAddr` and `netip.Addr.String()`: the family
 *   follows the syntax, so `::ffff:1.2.3.4` stays IPv6, as Linux and its tools keep it.
 * The arithmetic is the reference's `pkg/ip` (NextIP, PrevIP, Cmp).
 */
import { formatIP as formatBytes, isIPv4, parseIP as parseBytes } from "../ip.ts";

/** An address family: 4 or 6. */
export type Family = 4 | 6;

/** An address: its family and its value, an unsigned integer of 32 or 128 bits. */
export interface IP {
  readonly family: Family;
  readonly value: bigint;
}

const V4_MAPPED = 0xffffn << 32n;
const LOW32 = 0xffffffffn;

/** The number of bits of an address of `family`: 32 or 128. */
export function familyBits(family: Family): 32 | 128 {
  return family === 4 ? 32 : 128;
}

/**
 * The address of 16 bytes (as `parseIP` of `../ip.ts` returns them). Without `family`, an
 * IPv4-mapped address is IPv4 (Go's `To4`); with family 6 it keeps all 128 bits.
 */
export function ipFromBytes(bytes: Uint8Array, family?: Family): IP {
  if (family !== 6 && isIPv4(bytes)) {
    const v4 = (((bytes[12] ?? 0) << 24) | ((bytes[13] ?? 0) << 16) | ((bytes[14] ?? 0) << 8) | (bytes[15] ?? 0)) >>> 0;
    return { family: 4, value: BigInt(v4) };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, 16);
  return { family: 6, value: (view.getBigUint64(0) << 64n) | view.getBigUint64(8) };
}

/** The 16 bytes of an address; an IPv4 address in its IPv4-mapped form, as Go keeps it. */
export function ipToBytes(ip: IP): Uint8Array {
  const value = ip.family === 4 ? V4_MAPPED | (ip.value & LOW32) : ip.value;
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  view.setBigUint64(0, value >> 64n);
  view.setBigUint64(8, value & 0xffffffffffffffffn);
  return bytes;
}

/**
 * Parses an address as Go's `net.ParseIP` (no leading zeros in IPv4, no zone), an
 * IPv4-mapped IPv6 address coming back as IPv4 (`To4`, host-local's `canonicalizeIP`).
 *
 * @example parseIP("::ffff:10.0.0.1") // { family: 4, value: 167772161n }
 */
export function parseIP(text: string): IP | undefined {
  const bytes = parseBytes(text);
  return bytes === undefined ? undefined : ipFromBytes(bytes);
}

/**
 * Parses an address as Go's `netip.ParseAddr` without a zone: the rules of `parseIP`, but
 * the family follows the syntax, so `::ffff:10.0.0.1` is an IPv6 address.
 *
 * @example parseAddr("::ffff:10.0.0.1") // { family: 6, value: 281470849646593n }
 */
export function parseAddr(text: string): IP | undefined {
  const bytes = parseBytes(text);
  return bytes === undefined ? undefined : ipFromBytes(bytes, text.includes(":") ? 6 : 4);
}

function formatV4(value: bigint): string {
  const n = Number(value & LOW32);
  return `${n >>> 24}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;
}

/** True when an IPv6 address lies in `::ffff:0:0/96` (Go's `Is4In6`). */
export function isMapped(ip: IP): boolean {
  return ip.family === 6 && ip.value >> 32n === 0xffffn;
}

/**
 * Prints an address as Go's `net.IP.String()`: dotted IPv4, also for an IPv6 address in
 * `::ffff:0:0/96`; otherwise RFC 5952 (the first longest run of zero groups as `::`).
 *
 * @example formatIP(parseIP("2001:db8:0:0:1:0:0:1")!) // "2001:db8::1:0:0:1"
 */
export function formatIP(ip: IP): string {
  return ip.family === 4 ? formatV4(ip.value) : formatBytes(ipToBytes(ip));
}

/**
 * Prints an address as Go's `netip.Addr.String()` (and glibc's `inet_ntop`, for these):
 * as `formatIP`, but an IPv6 address in `::ffff:0:0/96` keeps its IPv6 form.
 *
 * @example formatAddr(parseAddr("::ffff:10.0.0.1")!) // "::ffff:10.0.0.1"
 */
export function formatAddr(ip: IP): string {
  return isMapped(ip) ? `::ffff:${formatV4(ip.value)}` : formatIP(ip);
}

/** Orders addresses: IPv4 before IPv6, then by value (<0, 0, >0), as the reference's `ip.Cmp`. */
export function compareIP(a: IP, b: IP): number {
  if (a.family !== b.family) return a.family - b.family;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/** True when both are the same address of the same family. */
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
