/**
 * IP addresses and CIDRs parsed and printed exactly as Go's `net` package does when the
 * reference library round-trips a result: `net.ParseIP`, `net.ParseCIDR`
 * (built on `netip.ParseAddr`), `IP.String()` and `IPNet.String()`.
 *
 * An address is 16 bytes; an IPv4 address is kept in its IPv4-mapped form
 * (`::ffff:a.b.c.d`), as Go does, so IPv4 and IPv4-mapped IPv6 print alike.
 */

/** A CIDR as Go's `types.ParseCIDR` keeps it: the address with its host bits, and the mask. */
export interface ParsedCIDR {
  /** The address, 16 bytes, host bits kept. */
  readonly ip: Uint8Array;
  /** The prefix length, counted in `bits`. */
  readonly prefix: number;
  /** 32 when the text was IPv4 syntax, 128 for IPv6 syntax (even IPv4-mapped). */
  readonly bits: 32 | 128;
}

const V4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function _v4Mapped(a: number, b: number, c: number, d: number): Uint8Array {
  return Uint8Array.from([...V4_MAPPED_PREFIX, a, b, c, d]);
}

/** Go's `parseIPv4Fields`: four decimal fields, each 0-255, no leading zeros. */
function _parseIPv4(s: string): number[] | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** Go's `netip.parseIPv6` without a zone (ParseIP and ParseCIDR reject zones). */
function _parseIPv6(s: string): Uint8Array | undefined {
  if (s.includes("%")) return undefined;
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  let rest = s;
  if (rest.startsWith("::")) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest === "") return ip;
  }
  let i = 0;
  while (i < 16) {
    const m = /^[0-9a-fA-F]*/.exec(rest);
    const hex = m?.[0] ?? "";
    if (hex.length > 4) return undefined;
    if (hex.length === 0) return undefined;
    if (rest[hex.length] === ".") {
      // An embedded IPv4 address must take the last 32 bits (or follow a "::").
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16) return undefined;
      const v4 = _parseIPv4(rest);
      if (v4 === undefined) return undefined;
      ip.set(v4, i);
      rest = "";
      i += 4;
      break;
    }
    const value = Number.parseInt(hex, 16);
    ip[i] = value >> 8;
    ip[i + 1] = value & 0xff;
    i += 2;
    rest = rest.slice(hex.length);
    if (rest === "") break;
    if (rest[0] !== ":" || rest.length === 1) return undefined;
    rest = rest.slice(1);
    if (rest[0] === ":") {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      rest = rest.slice(1);
      if (rest === "") break;
    }
  }
  if (rest !== "") return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    ip.copyWithin(ellipsis + n, ellipsis, i);
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    return undefined; // "::" must stand for at least one zero group
  }
  return ip;
}

/**
 * Parses an IP address like Go's `net.ParseIP`: strict dotted IPv4 (no leading zeros),
 * IPv6 with at most one `::` and an optional trailing IPv4, no zone. Returns 16 bytes.
 *
 * @example parseIP("10.0.0.1") // Uint8Array [0,...,0xff,0xff,10,0,0,1]
 */
export function parseIP(text: string): Uint8Array | undefined {
  // netip.ParseAddr: the first '.', ':' or '%' decides the syntax.
  const m = /[.:%]/.exec(text);
  if (m === null || m[0] === "%") return undefined;
  if (m[0] === ".") {
    const v4 = _parseIPv4(text);
    return v4 === undefined ? undefined : _v4Mapped(v4[0] ?? 0, v4[1] ?? 0, v4[2] ?? 0, v4[3] ?? 0);
  }
  return _parseIPv6(text);
}

/** True when 16 bytes are an IPv4 (IPv4-mapped) address: Go's `ip.To4() != nil`. */
export function isIPv4(ip: Uint8Array): boolean {
  return V4_MAPPED_PREFIX.every((b, i) => ip[i] === b);
}

/**
 * Prints 16 bytes like Go's `IP.String()`: dotted for IPv4 and IPv4-mapped addresses,
 * otherwise RFC 5952 (lower case, the first longest run of two or more zero groups as `::`).
 *
 * @example formatIP(parseIP("2001:DB8:0:0:1:0:0:1")!) // "2001:db8::1:0:0:1"
 */
export function formatIP(ip: Uint8Array): string {
  if (isIPv4(ip)) return `${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip[i] ?? 0) << 8) | (ip[i + 1] ?? 0));
  let zeroStart = -1;
  let zeroLen = 0;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroLen) {
      zeroStart = i;
      zeroLen = j - i;
    }
  }
  const hex = (g: number[]): string => g.map((x) => x.toString(16)).join(":");
  if (zeroStart < 0) return hex(groups);
  return `${hex(groups.slice(0, zeroStart))}::${hex(groups.slice(zeroStart + zeroLen))}`;
}

/**
 * Parses a CIDR like Go's `net.ParseCIDR`, keeping the host bits (Go's `types.ParseCIDR`):
 * the prefix is decimal (leading zeros allowed) and at most 32 or 128 by the address syntax.
 *
 * @example parseCIDR("10.1.0.5/16") // { ip: <10.1.0.5>, prefix: 16, bits: 32 }
 */
export function parseCIDR(text: string): ParsedCIDR | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const addr = text.slice(0, slash);
  const mask = text.slice(slash + 1);
  const ip = parseIP(addr);
  if (ip === undefined || !/^[0-9]+$/.test(mask)) return undefined;
  // netip decides the bit length by syntax: "::ffff:1.2.3.4" is a 128-bit address.
  const bits = /^[^:]*\./.test(addr) ? 32 : 128;
  // Go's dtoi: decimal digits, leading zeros allowed; anything above the bit length fails.
  const prefix = Number(mask);
  if (prefix > bits) return undefined;
  return { ip, prefix, bits };
}

/**
 * Prints a CIDR like Go's `IPNet.String()`: an IPv4-mapped address prints as IPv4 and its
 * mask is cut to the last 32 bits, so `::ffff:1.2.3.4/120` prints `1.2.3.4/24`.
 */
export function formatCIDR(cidr: ParsedCIDR): string {
  if (isIPv4(cidr.ip)) {
    const prefix = cidr.bits === 32 ? cidr.prefix : Math.max(0, cidr.prefix - 96);
    return `${formatIP(cidr.ip)}/${prefix}`;
  }
  return `${formatIP(cidr.ip)}/${cidr.prefix}`;
}

/** The canonical text of an IP (what Go prints after parsing it), or undefined when invalid. */
export function canonicalIP(text: string): string | undefined {
  const ip = parseIP(text);
  return ip === undefined ? undefined : formatIP(ip);
}

/** The canonical text of a CIDR (what Go prints after parsing it), or undefined when invalid. */
export function canonicalCIDR(text: string): string | undefined {
  const cidr = parseCIDR(text);
  return cidr === undefined ? undefined : formatCIDR(cidr);
}

/**
 * The address family of an IP or CIDR text: 4 for IPv4 and IPv4-mapped addresses (Go's
 * `To4() != nil`), 6 otherwise; undefined when the text parses as neither.
 */
export function ipFamily(text: string): 4 | 6 | undefined {
  const ip = text.includes("/") ? parseCIDR(text)?.ip : parseIP(text);
  if (ip === undefined) return undefined;
  return isIPv4(ip) ? 4 : 6;
}
