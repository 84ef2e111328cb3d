/**
 * Addresses between the kernel's bytes and the text iproute2 prints and reads: IPs as
 * glibc's inet_ntop prints them (so `::ffff:1.2.3.4` stays IPv6, unlike Go), MACs as
 * lower-case colon hex. Pure.
 */
import { formatIP, parseIP } from "@tscni/spec";

/** An IP in the kernel's byte form: 4 or 16 bytes. */
export interface IpBytes {
  family: 4 | 6;
  bytes: Uint8Array;
}

/** Parses IPv4 or IPv6 text (iproute2's syntax: the first `.` or `:` decides). */
export function ipBytes(text: string): IpBytes | undefined {
  const b = parseIP(text);
  if (b === undefined) return undefined;
  return /^[^:]*\./.test(text) ? { family: 4, bytes: b.slice(12) } : { family: 6, bytes: b };
}

/** Parses a `addr/len` CIDR; a bare address means the full length. */
export function cidrBytes(text: string): (IpBytes & { prefix: number }) | undefined {
  const [addr = "", len, ...rest] = text.split("/");
  const ip = ipBytes(addr);
  if (ip === undefined || rest.length > 0) return undefined;
  const max = ip.family === 4 ? 32 : 128;
  if (len === undefined) return { ...ip, prefix: max };
  if (!/^\d{1,3}$/.test(len) || Number(len) > max) return undefined;
  return { ...ip, prefix: Number(len) };
}

const v4 = (b: Uint8Array, at: number): string => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/** An IP as inet_ntop(3) prints it, from 4 or 16 bytes. */
export function ipText(b: Uint8Array): string {
  if (b.length === 4) return v4(b, 0);
  if (b.length !== 16) return "";
  const zeros = (from: number, to: number): boolean => b.subarray(from, to).every((x) => x === 0);
  // glibc prints an embedded IPv4 for ::ffff:a.b.c.d and for ::a.b.c.d (when not ::x).
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return `::ffff:${v4(b, 12)}`;
  if (zeros(0, 12) && (b[12] !== 0 || b[13] !== 0)) return `::${v4(b, 12)}`;
  // Otherwise RFC 5952, which is what formatIP prints for anything not IPv4-mapped.
  return formatIP(b);
}

/** Link-layer address bytes as colon hex. */
export function macText(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(":");
}

/** Colon-hex MAC text to bytes, or undefined. */
export function macBytes(text: string): Uint8Array | undefined {
  if (!/^[0-9a-fA-F]{1,2}(:[0-9a-fA-F]{1,2})*$/.test(text)) return undefined;
  return Uint8Array.from(text.split(":"), (h) => Number.parseInt(h, 16));
}
