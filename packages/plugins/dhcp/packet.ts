/**
 * The DHCPv4 message (RFC 2131 section 2, options RFC 2132): a pure codec between bytes and a
 * typed message. Options keep their wire order in a Map (code -> raw bytes); repeated
 * codes are concatenated on decode (RFC 3396), and overload of `file`/`sname` (option 52)
 * is honoured so nothing a server sends is lost.
 */

/** DHCP message types (option 53). */
export const MessageType = {
  Discover: 1,
  Offer: 2,
  Request: 3,
  Decline: 4,
  Ack: 5,
  Nak: 6,
  Release: 7,
  Inform: 8,
} as const;

/** Option codes this client reads or writes. */
export const Opt = {
  SubnetMask: 1,
  Router: 3,
  DomainNameServer: 6,
  HostName: 12,
  DomainName: 15,
  StaticRoutes: 33,
  RequestedIP: 50,
  LeaseTime: 51,
  Overload: 52,
  MessageType: 53,
  ServerId: 54,
  ParameterRequestList: 55,
  Message: 56,
  MaxMessageSize: 57,
  RenewalTime: 58,
  RebindingTime: 59,
  ClassId: 60,
  ClientId: 61,
  UserClass: 77,
  ClasslessRoutes: 121,
} as const;

/** The magic cookie that starts the options field (RFC 2131 section 3). */
export const MAGIC = [99, 130, 83, 99] as const;

/** The broadcast bit of `flags` (RFC 2131 section 2, figure 2). */
export const FLAG_BROADCAST = 0x8000;

/** A decoded (or to-be-encoded) DHCPv4 message. Addresses are dotted quads. */
export interface DhcpMessage {
  op: 1 | 2;
  xid: number;
  secs: number;
  flags: number;
  ciaddr: string;
  yiaddr: string;
  siaddr: string;
  giaddr: string;
  /** Client hardware address (6 bytes for Ethernet). */
  chaddr: Uint8Array;
  options: Map<number, Uint8Array>;
}

const HEADER = 236;

/** A dotted quad from 4 bytes. */
export function ipString(b: Uint8Array, at = 0): string {
  return `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
}

/** 4 bytes from a dotted quad; throws on anything else. */
export function ipBytes(ip: string): Uint8Array {
  const parts = ip.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
    throw new Error(`invalid IPv4 address "${ip}"`);
  return Uint8Array.from(parts);
}

/** Encodes a message; options are written in insertion order, then END, padded to 300 bytes (BOOTP minimum). */
export function encodeMessage(m: DhcpMessage): Uint8Array {
  const opts: number[] = [];
  for (const [code, value] of m.options) {
    // Values over 255 bytes are split into several instances of the code (RFC 3396).
    for (let at = 0; at < value.length || at === 0; at += 255) {
      const part = value.subarray(at, at + 255);
      opts.push(code, part.length, ...part);
      if (value.length === 0) break;
    }
  }
  opts.push(255);
  const out = new Uint8Array(Math.max(HEADER + 4 + opts.length, 300));
  const v = new DataView(out.buffer);
  out[0] = m.op;
  out[1] = 1; // htype Ethernet
  out[2] = m.chaddr.length;
  v.setUint32(4, m.xid >>> 0);
  v.setUint16(8, m.secs);
  v.setUint16(10, m.flags);
  out.set(ipBytes(m.ciaddr), 12);
  out.set(ipBytes(m.yiaddr), 16);
  out.set(ipBytes(m.siaddr), 20);
  out.set(ipBytes(m.giaddr), 24);
  out.set(m.chaddr.subarray(0, 16), 28);
  out.set(MAGIC, HEADER);
  out.set(opts, HEADER + 4);
  return out;
}

function readOptions(b: Uint8Array, into: Map<number, Uint8Array>): void {
  let i = 0;
  while (i < b.length) {
    const code = b[i] as number;
    if (code === 0) {
      i++;
      continue;
    }
    if (code === 255) return;
    const len = b[i + 1];
    if (len === undefined || i + 2 + len > b.length) throw new Error("truncated DHCP option");
    const value = b.subarray(i + 2, i + 2 + len);
    const had = into.get(code);
    into.set(code, had === undefined ? value.slice() : Uint8Array.from([...had, ...value]));
    i += 2 + len;
  }
}

/** Decodes a message; throws on a short packet, a bad cookie or a truncated option. */
export function decodeMessage(b: Uint8Array): DhcpMessage {
  if (b.length < HEADER + 4) throw new Error(`DHCP message too short (${b.length} bytes)`);
  if (MAGIC.some((x, i) => b[HEADER + i] !== x)) throw new Error("DHCP magic cookie missing");
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const op = b[0];
  if (op !== 1 && op !== 2) throw new Error(`bad BOOTP op ${op}`);
  const hlen = Math.min(b[2] as number, 16);
  const options = new Map<number, Uint8Array>();
  readOptions(b.subarray(HEADER + 4), options);
  const overload = options.get(Opt.Overload)?.[0] ?? 0;
  if (overload & 1) readOptions(b.subarray(108, 236), options);
  if (overload & 2) readOptions(b.subarray(44, 108), options);
  return {
    op,
    xid: v.getUint32(4),
    secs: v.getUint16(8),
    flags: v.getUint16(10),
    ciaddr: ipString(b, 12),
    yiaddr: ipString(b, 16),
    siaddr: ipString(b, 20),
    giaddr: ipString(b, 24),
    chaddr: b.slice(28, 28 + hlen),
    options,
  };
}

/** The message type (option 53), or undefined. */
export function messageType(m: DhcpMessage): number | undefined {
  return m.options.get(Opt.MessageType)?.[0];
}

/** A 32-bit big-endian option (lease times), or undefined when absent or malformed. */
export function optU32(m: DhcpMessage, code: number): number | undefined {
  const v = m.options.get(code);
  if (v?.length !== 4) return undefined;
  return new DataView(v.buffer, v.byteOffset, 4).getUint32(0);
}

/** A list-of-addresses option (router, DNS), as dotted quads. */
export function optIPs(m: DhcpMessage, code: number): string[] {
  const v = m.options.get(code);
  const out: string[] = [];
  if (v === undefined) return out;
  for (let i = 0; i + 4 <= v.length; i += 4) out.push(ipString(v, i));
  return out;
}
