/**
 * What the fake kernel reads beyond `@tscni/spec/ipnet`: a CIDR that may be a bare
 * address, and the EUI-64 link-local address. Linux keeps an address in the family it is
 * written in (`::ffff:1.2.3.4` is IPv6), so the sim uses the netip reading throughout.
 */
import { type IP, type IPNet, hostNet, parseAddr, parsePrefix } from "@tscni/spec/ipnet";

/** Parses `addr/prefix` (a bare address counts as a host prefix), or returns undefined. */
export function parseCidr(text: string): IPNet | undefined {
  if (!text.includes("/")) {
    const ip = parseAddr(text);
    return ip === undefined ? undefined : hostNet(ip);
  }
  const net = parsePrefix(text);
  return net === undefined ? undefined : { ip: net.ip, prefix: net.prefix };
}

/** The IPv6 link-local address the kernel derives from a MAC (EUI-64, addrgenmode eui64). */
export function linkLocalFromMac(mac: string): IP {
  const b = mac.split(":").map((h) => parseInt(h, 16));
  const eui = [(b[0] ?? 0) ^ 2, b[1] ?? 0, b[2] ?? 0, 0xff, 0xfe, b[3] ?? 0, b[4] ?? 0, b[5] ?? 0];
  let value = 0xfe80n << 112n;
  for (const [i, byte] of eui.entries()) value |= BigInt(byte) << BigInt(56 - 8 * i);
  return { family: 6, value };
}
