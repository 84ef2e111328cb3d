/**
 * Networks as Go's `types.IPNet` holds them: the address keeps its host bits, the
 * mask has its own width (a CIDR written in IPv6 syntax has a 128-bit mask even when the
 * address canonicalises to IPv4, which upstream rejects as a version mismatch).
 */
import { type Family, type IP, familyBits, formatIP, isV6Text, parseIP } from "./ip.ts";

/** An address with a prefix length; `ip` keeps the host bits. */
export interface IPNet {
  readonly ip: IP;
  readonly prefix: number;
  /** The mask's width: 32 or 128. */
  readonly maskBits: number;
}

/**
 * Parses `addr/prefix` as Go's `net.ParseCIDR` followed by `types.ParseCIDR` (host bits
 * kept); undefined when malformed.
 *
 * @example parseCIDR("10.1.2.3/16") // { ip: 10.1.2.3, prefix: 16, maskBits: 32 }
 */
export function parseCIDR(text: string): IPNet | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const addr = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  const ip = parseIP(addr);
  const maskBits = isV6Text(addr) ? 128 : 32;
  if (ip === undefined || !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > maskBits) return undefined;
  return { ip, prefix, maskBits };
}

/** The mask of a prefix in a family, as a bigint over that family's bits. */
export function maskOf(family: Family, prefix: number): bigint {
  const bits = BigInt(familyBits(family));
  const host = bits - BigInt(prefix);
  return ((1n << bits) - 1n) ^ ((1n << host) - 1n);
}

/** The network address (host bits cleared). */
export function networkAddress(net: IPNet): IP {
  return { family: net.ip.family, value: net.ip.value & maskOf(net.ip.family, net.prefix) };
}

/** The last address of the network (all host bits set). */
export function lastAddress(net: IPNet): IP {
  const mask = maskOf(net.ip.family, net.prefix);
  const all = (1n << BigInt(familyBits(net.ip.family))) - 1n;
  return { family: net.ip.family, value: (net.ip.value & mask) | (all ^ mask) };
}

/** True when `ip` lies in the network (same family, same masked bits). */
export function netContains(net: IPNet, ip: IP): boolean {
  if (ip.family !== net.ip.family) return false;
  const mask = maskOf(ip.family, net.prefix);
  return (ip.value & mask) === (net.ip.value & mask);
}

/** Prints the network as Go's `IPNet.String()`: the address as held, then `/prefix`. */
export function formatCIDR(net: IPNet): string {
  return `${formatIP(net.ip)}/${net.prefix}`;
}

/** Parses `<ip>[/<prefix>]` (the reference's `ip.ParseIP`) and returns the address alone. */
export function parseIPMaybePrefix(text: string): IP | undefined {
  return text.includes("/") ? parseCIDR(text)?.ip : parseIP(text);
}
