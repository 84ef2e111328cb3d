/**
 * Networks as Go's `net.IPNet` holds them: an address that keeps its host bits and a
 * prefix length counted in the mask's own width. A CIDR written in IPv6 syntax has a
 * 128-bit mask even when its address is IPv4-mapped (`::ffff:1.2.3.4/120`); Go then uses
 * the mask's last 32 bits (`networkNumberAndMask`), and so does everything here.
 */
import { parseCIDR as parseBytesCIDR } from "../ip.ts";
import { type Family, type IP, familyBits, formatAddr, formatIP, ipFromBytes } from "./addr.ts";

/** An address with a prefix length; `ip` keeps the host bits. */
export interface IPNet {
  readonly ip: IP;
  /** The prefix length, counted in `bits`. */
  readonly prefix: number;
  /** The mask's width; absent means the address family's (32 or 128). */
  readonly bits?: 32 | 128;
}

/**
 * Parses `addr/prefix` as Go's `net.ParseCIDR` keeping the host bits (`types.ParseCIDR`):
 * the address as `parseIP` reads it, a decimal prefix (leading zeros allowed) no longer
 * than the syntax's width, which `bits` records.
 *
 * @example parseCIDR("10.1.2.3/16") // { ip: 10.1.2.3, prefix: 16, bits: 32 }
 */
export function parseCIDR(text: string): IPNet | undefined {
  const parsed = parseBytesCIDR(text);
  return parsed === undefined ? undefined : { ip: ipFromBytes(parsed.ip), prefix: parsed.prefix, bits: parsed.bits };
}

/**
 * Parses `addr/prefix` as `parseCIDR` does, but the family follows the syntax (as
 * `parseAddr`, Go's `netip.Prefix`): `::ffff:1.2.3.4/120` stays an IPv6 network, as Linux
 * keeps it. The prefix digits are read as `parseCIDR` reads them.
 *
 * @example parsePrefix("::ffff:10.0.0.0/120") // { ip: ::ffff:10.0.0.0 (IPv6), prefix: 120, bits: 128 }
 */
export function parsePrefix(text: string): IPNet | undefined {
  const parsed = parseBytesCIDR(text);
  if (parsed === undefined) return undefined;
  return { ip: ipFromBytes(parsed.ip, parsed.bits === 32 ? 4 : 6), prefix: parsed.prefix, bits: parsed.bits };
}

/** The prefix length in the address family's bits: a 128-bit mask on IPv4 keeps its last 32. */
export function familyPrefix(net: IPNet): number {
  const width = familyBits(net.ip.family);
  const bits = net.bits ?? width;
  return bits === width ? net.prefix : Math.max(0, net.prefix - (bits - width));
}

/**
 * Prints a network as Go's `IPNet.String()`: the address as held, then the prefix in the
 * address family's bits (`::ffff:1.2.3.4/120` prints `1.2.3.4/24`).
 */
export function formatCIDR(net: IPNet): string {
  return `${formatIP(net.ip)}/${familyPrefix(net)}`;
}

/** Prints a network as `addr/prefix` with `formatAddr`: the counterpart of `parsePrefix`. */
export function formatPrefix(net: IPNet): string {
  return `${formatAddr(net.ip)}/${familyPrefix(net)}`;
}

/** The mask of a prefix in a family, as a bigint over that family's bits. */
export function maskOf(family: Family, prefix: number): bigint {
  const bits = BigInt(familyBits(family));
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
}

/** The network address: the address with its host bits cleared. */
export function networkAddress(net: IPNet): IP {
  return { family: net.ip.family, value: net.ip.value & maskOf(net.ip.family, familyPrefix(net)) };
}

/** The network itself: the same prefix, host bits cleared. */
export function network(net: IPNet): IPNet {
  return { ...net, ip: networkAddress(net) };
}

/** True when the network's address has no host bits set. */
export function isNetwork(net: IPNet): boolean {
  return networkAddress(net).value === net.ip.value;
}

/** The last address of the network: all host bits set. */
export function lastAddress(net: IPNet): IP {
  const mask = maskOf(net.ip.family, familyPrefix(net));
  const all = (1n << BigInt(familyBits(net.ip.family))) - 1n;
  return { family: net.ip.family, value: (net.ip.value & mask) | (all ^ mask) };
}

/** True when `ip` lies in the network: same family, same bits under the mask (`IPNet.Contains`). */
export function contains(net: IPNet, ip: IP): boolean {
  if (ip.family !== net.ip.family) return false;
  const mask = maskOf(ip.family, familyPrefix(net));
  return (ip.value & mask) === (net.ip.value & mask);
}

/** The host network of an address: `/32` for IPv4, `/128` for IPv6. */
export function hostNet(ip: IP): IPNet {
  return { ip, prefix: familyBits(ip.family) };
}
