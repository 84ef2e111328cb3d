/**
 * Minimal IP arithmetic for the fake kernel: addresses as bigints, CIDR parsing,
 * prefix containment and canonical text. Pure, no dependencies.
 */

/** A parsed IP address. */
export interface Ip {
  family: 4 | 6;
  /** The address as an unsigned integer (32 or 128 bits). */
  value: bigint;
}

/** A parsed CIDR: the address with its host bits, and the prefix length. */
export interface Cidr {
  ip: Ip;
  prefix: number;
}

/** Bit width of a family. */
export function bits(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

function parseV4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseV6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === "") return [];
    const out: number[] = [];
    const items = half.split(":");
    for (const [i, item] of items.entries()) {
      if (item.includes(".") && i === items.length - 1) {
        const v4 = parseV4(item);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(item)) {
        out.push(parseInt(item, 16));
      } else return undefined;
    }
    return out;
  };
  const head = groups(halves[0] ?? "");
  const tail = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  let value = 0n;
  for (const g of [...head, ...Array<number>(missing).fill(0), ...tail]) value = (value << 16n) | BigInt(g);
  return value;
}

/** Parses an IPv4 or IPv6 address, or returns undefined. */
export function parseIp(text: string): Ip | undefined {
  if (text.includes(":")) {
    const value = parseV6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseV4(text);
  return value === undefined ? undefined : { family: 4, value };
}

/** Parses `addr/prefix` (a bare address counts as a host prefix), or returns undefined. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf("/");
  const ip = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (!ip) return undefined;
  if (slash < 0) return { ip, prefix: bits(ip.family) };
  const p = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(p) || Number(p) > bits(ip.family)) return undefined;
  return { ip, prefix: Number(p) };
}

/** Canonical text of an address (RFC 5952 for IPv6). */
export function formatIp(ip: Ip): string {
  if (ip.family === 4) {
    return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 0xffn)).join(".");
  }
  const groups = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(":");
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

/** Canonical text of a CIDR, keeping host bits. */
export function formatCidr(c: Cidr): string {
  return `${formatIp(c.ip)}/${c.prefix}`;
}

/** The netmask of a prefix as an integer. */
function mask(family: 4 | 6, prefix: number): bigint {
  const width = BigInt(bits(family));
  return ((1n << width) - 1n) ^ ((1n << (width - BigInt(prefix))) - 1n);
}

/** The CIDR with its host bits cleared. */
export function network(c: Cidr): Cidr {
  return { ip: { family: c.ip.family, value: c.ip.value & mask(c.ip.family, c.prefix) }, prefix: c.prefix };
}

/** True when the CIDR has no host bits set. */
export function isNetwork(c: Cidr): boolean {
  return network(c).ip.value === c.ip.value;
}

/** True when `ip` falls inside `c`. */
export function contains(c: Cidr, ip: Ip): boolean {
  return c.ip.family === ip.family && (ip.value & mask(ip.family, c.prefix)) === network(c).ip.value;
}

/** True when two addresses are the same. */
export function sameIp(a: Ip, b: Ip): boolean {
  return a.family === b.family && a.value === b.value;
}

/** The IPv6 link-local address the kernel derives from a MAC (EUI-64, addrgenmode eui64). */
export function linkLocalFromMac(mac: string): Ip {
  const b = mac.split(":").map((h) => parseInt(h, 16));
  const eui = [(b[0] ?? 0) ^ 2, b[1] ?? 0, b[2] ?? 0, 0xff, 0xfe, b[3] ?? 0, b[4] ?? 0, b[5] ?? 0];
  let value = 0xfe80n << 112n;
  for (const [i, byte] of eui.entries()) value |= BigInt(byte) << BigInt(56 - 8 * i);
  return { family: 6, value };
}
