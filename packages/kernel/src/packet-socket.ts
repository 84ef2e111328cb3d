/**
 * An AF_PACKET datagram socket on one interface of a container's namespace, for DHCPv4
 * (the reference's nclient4 uses the same kind of socket): created inside the namespace
 * with setns around the socket(2) call only (CONVENTIONS.md item 10; the socket keeps the
 * namespace it was made in), then bound to the interface by index. Why not UDP: before
 * the address exists, a server's unicast OFFER/ACK to `yiaddr` is dropped by the IP layer
 * (not a local address), so a UDP socket on port 68 never sees it unless the broadcast
 * flag is set; a packet socket sees the frame either way. A classic BPF filter keeps only
 * UDP to port 68. Frames are sent to ff:ff:ff:ff:ff:ff with IPv4/UDP headers built here.
 */
import { KernelError } from "./kernel.ts";
import { libc } from "./libc.ts";
import { within } from "./netns.ts";

/** An open DHCP client socket. */
export interface PacketSocket {
  readonly ifindex: number;
  readonly hwaddr: Uint8Array;
  /** Broadcasts a UDP payload from `src`:68 to 255.255.255.255:67. */
  sendUdp(payload: Uint8Array, src: string): void;
  /** One UDP payload addressed to port 68, or undefined when none is queued. */
  recvUdp(): Uint8Array | undefined;
  /** Whether the interface still exists in the socket's namespace. */
  linkExists(): boolean;
  /** Sets the interface up or down (SIOCSIFFLAGS). */
  setUp(up: boolean): void;
  close(): void;
}

const AF_PACKET = 17;
const SOCK_DGRAM_NB_CLOEXEC = 2 | 0x800 | 0x80000;
const ETH_P_IP_BE = 0x0008; // htons(0x0800)
const SIOCGIFFLAGS = 0x8913;
const SIOCSIFFLAGS = 0x8914;
const SIOCGIFHWADDR = 0x8927;
const SIOCGIFINDEX = 0x8933;
const SOL_SOCKET = 1;
const SO_ATTACH_FILTER = 26;
const MSG_DONTWAIT = 0x40;
const EAGAIN = 11;
const IFF_UP = 1;

// ip[9] == 17 && udp dport == 68 (classic BPF over the network header, as SOCK_DGRAM sees it).
const FILTER: readonly [number, number, number, number][] = [
  [0x30, 0, 0, 9], // ldb [9]
  [0x15, 0, 4, 17], // jeq #17
  [0xb1, 0, 0, 0], // ldxb 4*([0]&0xf)
  [0x48, 0, 0, 2], // ldh [x+2]
  [0x15, 0, 1, 68], // jeq #68
  [0x06, 0, 0, 0xffff], // ret #65535
  [0x06, 0, 0, 0], // ret #0
];

interface Extra {
  bind(fd: number, addr: Uint8Array, len: number): number;
  sendto(fd: number, buf: Uint8Array, len: number, flags: number, addr: Uint8Array, alen: number): number;
  ioctl(fd: number, req: number, arg: Uint8Array): number;
  ptr(b: Uint8Array): number;
}

let extra: Promise<Extra> | undefined;

function loadExtra(): Promise<Extra> {
  // The one libc loader (libc.ts) has the calls; bun:ffi's ptr is not a libc symbol.
  extra ??= (async () => {
    const [c, { ptr }] = await Promise.all([libc(), import("bun:ffi")]);
    return { bind: c.bind, sendto: c.sendto, ioctl: c.ioctl, ptr: (b) => Number(ptr(b)) };
  })();
  return extra;
}

function ifreq(name: string): Uint8Array {
  const b = new Uint8Array(40);
  b.set(new TextEncoder().encode(name).subarray(0, 15));
  return b;
}

function sockaddrLl(ifindex: number, broadcast: boolean): Uint8Array {
  const b = new Uint8Array(20);
  const v = new DataView(b.buffer);
  v.setUint16(0, AF_PACKET, true);
  v.setUint16(2, ETH_P_IP_BE, true);
  v.setInt32(4, ifindex, true);
  if (broadcast) {
    b[11] = 6;
    b.fill(0xff, 12, 18);
  }
  return b;
}

function checksum(b: Uint8Array, seed = 0): number {
  let sum = seed;
  for (let i = 0; i < b.length; i += 2) sum += ((b[i] as number) << 8) | (b[i + 1] ?? 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

/** An IPv4+UDP datagram from `src`:68 to 255.255.255.255:67 carrying `payload`. */
export function buildDhcpDatagram(payload: Uint8Array, src: string): Uint8Array {
  const out = new Uint8Array(28 + payload.length);
  const v = new DataView(out.buffer);
  const s = src.split(".").map(Number);
  out.set([0x45, 0, 0, 0, 0, 0, 0, 0, 64, 17, 0, 0, ...s, 255, 255, 255, 255]);
  v.setUint16(2, out.length);
  v.setUint16(10, checksum(out.subarray(0, 20)));
  v.setUint16(20, 68);
  v.setUint16(22, 67);
  v.setUint16(24, 8 + payload.length);
  out.set(payload, 28);
  // UDP checksum over the pseudo-header (RFC 768); 0 would mean "none" and is sent as 0xffff.
  const pseudo =
    17 +
    8 +
    payload.length +
    ((s[0] as number) << 8) +
    (s[1] as number) +
    ((s[2] as number) << 8) +
    (s[3] as number) +
    0xffff * 2;
  const c = checksum(out.subarray(20), pseudo);
  v.setUint16(26, c === 0 ? 0xffff : c);
  return out;
}

/** The UDP payload of an IPv4 datagram to port 68, or undefined. */
export function dhcpPayload(d: Uint8Array): Uint8Array | undefined {
  if (d.length < 28 || (d[0] as number) >> 4 !== 4 || d[9] !== 17) return undefined;
  const ihl = ((d[0] as number) & 0xf) * 4;
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  if (d.length < ihl + 8 || v.getUint16(ihl + 2) !== 68) return undefined;
  const len = v.getUint16(ihl + 4);
  return d.slice(ihl + 8, Math.min(d.length, ihl + len));
}

/** Opens the DHCP socket on `ifName` inside the namespace at `netns` (setting the link up first when `up`); KernelError when either is missing. */
export async function openPacketSocket(
  netns: string,
  ifName: string,
  opts: { up?: boolean } = {},
): Promise<PacketSocket> {
  const c = await libc();
  const x = await loadExtra();
  const fd = within(c, netns, () => c.socket(AF_PACKET, SOCK_DGRAM_NB_CLOEXEC, ETH_P_IP_BE));
  if (fd < 0) throw new KernelError("other", `socket(AF_PACKET): errno ${c.errno()}`);
  const fail = (what: string): never => {
    const errno = c.errno();
    c.close(fd);
    throw new KernelError(
      errno === 19 ? "not-found" : "other",
      errno === 19 ? `error looking up "${ifName}": Link not found` : `${what}: errno ${errno}`,
    );
  };
  const req = ifreq(ifName);
  if (x.ioctl(fd, SIOCGIFINDEX, req) !== 0) fail("SIOCGIFINDEX");
  const ifindex = new DataView(req.buffer).getInt32(16, true);
  const hw = ifreq(ifName);
  if (x.ioctl(fd, SIOCGIFHWADDR, hw) !== 0) fail("SIOCGIFHWADDR");
  const hwaddr = hw.slice(18, 24);
  const prog = new Uint8Array(FILTER.length * 8);
  const pv = new DataView(prog.buffer);
  FILTER.forEach(([code, jt, jf, k], i) => {
    pv.setUint16(i * 8, code, true);
    prog[i * 8 + 2] = jt;
    prog[i * 8 + 3] = jf;
    pv.setUint32(i * 8 + 4, k, true);
  });
  const fprog = new Uint8Array(16);
  new DataView(fprog.buffer).setUint16(0, FILTER.length, true);
  new DataView(fprog.buffer).setBigUint64(8, BigInt(x.ptr(prog)), true);
  if (c.setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, fprog, 16) !== 0) fail("SO_ATTACH_FILTER");
  const flags = (): number => {
    const r = ifreq(ifName);
    return x.ioctl(fd, SIOCGIFFLAGS, r) === 0 ? new DataView(r.buffer).getUint16(16, true) : -1;
  };
  const setUp = (up: boolean): void => {
    const f = flags();
    if (f < 0) throw new KernelError("not-found", `link "${ifName}" not found`);
    if (((f & IFF_UP) !== 0) === up) return;
    const r = ifreq(ifName);
    new DataView(r.buffer).setUint16(16, up ? f | IFF_UP : f & ~IFF_UP, true);
    if (x.ioctl(fd, SIOCSIFFLAGS, r) !== 0) throw new KernelError("other", `SIOCSIFFLAGS: errno ${c.errno()}`);
  };
  // Up before bind: a packet socket bound to a down link holds a pending ENETDOWN.
  if (opts.up === true) {
    try {
      setUp(true);
    } catch (err) {
      c.close(fd);
      throw err;
    }
  }
  const bound = sockaddrLl(ifindex, false);
  if (x.bind(fd, bound, bound.length) !== 0) fail("bind");
  const dest = sockaddrLl(ifindex, true);
  const buf = new Uint8Array(65536);
  let open = true;
  return {
    ifindex,
    hwaddr,
    sendUdp(payload, src) {
      const d = buildDhcpDatagram(payload, src);
      if (x.sendto(fd, d, d.length, 0, dest, dest.length) < 0)
        throw new KernelError("other", `sendto: errno ${c.errno()}`);
    },
    recvUdp() {
      for (;;) {
        const n = c.recv(fd, buf, buf.length, MSG_DONTWAIT);
        if (n < 0) {
          if (c.errno() === EAGAIN) return undefined;
          throw new KernelError("other", `recv: errno ${c.errno()}`);
        }
        const p = dhcpPayload(buf.subarray(0, n));
        if (p !== undefined) return p;
      }
    },
    linkExists: () => flags() >= 0,
    setUp,
    close() {
      if (open) c.close(fd);
      open = false;
    },
  };
}
