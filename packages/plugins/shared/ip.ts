/**
 * The text forms the plugins compare and emit, on `@tscni/spec/ipnet`. Plugins read the
 * kernel's text, where the family follows the syntax (`::ffff:1.2.3.4` is IPv6 on Linux),
 * so they use the netip reading (`parseAddr`, `parsePrefix`); results are canonical Go
 * text already, where both readings agree.
 */
import {
  type Family,
  type IP,
  type IPNet,
  familyPrefix,
  formatAddr,
  formatPrefix,
  hostNet,
  lastAddress,
  network,
  parseAddr,
  parsePrefix,
} from "@tscni/spec/ipnet";

/** The subnet of a CIDR in canonical form, e.g. `198.18.0.0/24` for `198.18.0.5/24`. */
export function subnetText(net: IPNet): string {
  return formatPrefix(network(net));
}

/** The host route form of an address: `/32` or `/128`. */
export function hostCidr(ip: IP): string {
  return formatPrefix(hostNet(ip));
}

/** Canonical text of an address given as text (`2001:DB8:0::1` -> `2001:db8::1`); the input when it does not parse. */
export function canonicalIp(text: string): string {
  const ip = parseAddr(text);
  return ip === undefined ? text : formatAddr(ip);
}

/** Canonical text of a CIDR given as text, host bits kept; the input when it does not parse. */
export function canonicalCidr(text: string): string {
  const net = parsePrefix(text);
  return net === undefined ? text : formatPrefix(net);
}

/** The default route destination of a family: `0.0.0.0/0` or `::/0`. */
export function defaultDst(family: Family): string {
  return family === 4 ? "0.0.0.0/0" : "::/0";
}

/**
 * The broadcast an IPv4 address gets from the reference's netlink AddrAdd: the subnet's
 * last address below /31 (RFC 3021 leaves /31 and /32 without one), none for IPv6.
 */
export function broadcastOf(net: IPNet): { broadcast: string } | Record<string, never> {
  return net.ip.family === 4 && familyPrefix(net) < 31 ? { broadcast: formatAddr(lastAddress(net)) } : {};
}
