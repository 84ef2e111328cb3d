/**
 * One rtnetlink socket, bound for its life to the namespace it was created in: a request
 * is one send and the receives up to its acknowledgement (or the end of a dump). Blocking
 * and synchronous, like the spawnSync it replaces; the kernel always answers.
 */
import * as K from "./constants.ts";
import { STRERROR, type Libc } from "../libc.ts";
import { attrs, attrStr, messages, NLMSG_HDRLEN, type MessageBuilder } from "./wire.ts";

const AF_NETLINK = 16;
const SOCK_RAW = 3;
const SOCK_CLOEXEC = 0x80000;
const NETLINK_ROUTE = 0;
const SOL_NETLINK = 270;
const NETLINK_CAP_ACK = 10;
const NETLINK_EXT_ACK = 11;
const NETLINK_GET_STRICT_CHK = 12;
const EINTR = 4;

/** The kernel refused a request: its errno and, when it gave one, its extended-ack message. */
export class NetlinkError extends Error {
  readonly errno: number;
  readonly extack: string | undefined;
  constructor(errno: number, extack: string | undefined) {
    super(extack ?? STRERROR[errno] ?? `errno ${errno}`);
    this.name = "NetlinkError";
    this.errno = errno;
    this.extack = extack;
  }

  /** What iproute2 prints for this error: the extended ack as `Error: ...`, else strerror. */
  get iproute2Text(): string {
    if (this.extack !== undefined && this.extack !== "")
      return `Error: ${this.extack}${this.extack.endsWith(".") ? "" : "."}`;
    return `RTNETLINK answers: ${STRERROR[this.errno] ?? `errno ${this.errno}`}`;
  }
}

/** The errno and extended-ack message of an NLMSG_ERROR payload (errno 0 is an ACK). */
function decodeError(p: DataView, flags: number): NetlinkError | undefined {
  const errno = -p.getInt32(0, true);
  if (errno === 0) return undefined;
  let extack: string | undefined;
  if ((flags & K.NLM_F_ACK_TLVS) !== 0 && p.byteLength >= 4 + NLMSG_HDRLEN) {
    // After the errno comes the request's header, and its payload unless capped.
    const echoed = (flags & K.NLM_F_CAPPED) !== 0 ? NLMSG_HDRLEN : p.getUint32(4, true);
    extack = attrStr(attrs(p, 4 + ((echoed + 3) & ~3)).get(K.NLMSGERR_ATTR_MSG));
  }
  return new NetlinkError(errno, extack);
}

/**
 * The receive buffer every socket of the process shares: a request is synchronous and
 * copies what it keeps out of it, so no two requests ever use it at once. One buffer per
 * socket cost a fresh 64 KiB (16 page faults) for each of the sockets a plugin call opens
 * (docs/PERFORMANCE.md "What changed").
 */
let shared: Uint8Array | undefined;

/** An open rtnetlink socket. */
export class NetlinkSocket {
  private seq = 1;
  private readonly buf = (shared ??= new Uint8Array(1 << 16));
  private strictChecked: boolean | undefined;

  private constructor(
    private readonly c: Libc,
    private readonly fd: number,
  ) {}

  /**
   * Opens a socket in the calling thread's current namespace (the caller may have switched
   * it); rtnetlink unless `protocol` names another netlink family (NETLINK_NETFILTER, 12).
   */
  static open(c: Libc, protocol = NETLINK_ROUTE): NetlinkSocket {
    const fd = c.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
    if (fd < 0) throw new NetlinkError(c.errno(), "cannot open a netlink socket");
    const one = Uint8Array.of(1, 0, 0, 0);
    // Error messages: the kernel's explanation (like iproute2 shows), without an echo of the request.
    c.setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, one, 4);
    c.setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, one, 4);
    return new NetlinkSocket(c, fd);
  }

  /**
   * Sends one request and returns the payloads of its replies of type `replyType` (every
   * message of a dump). Throws NetlinkError when the kernel refuses it.
   */
  request(msg: MessageBuilder, replyType?: number): DataView[] {
    const seq = this.seq++;
    const bytes = msg.build(seq);
    if (this.c.send(this.fd, bytes, bytes.length, 0) < 0) throw new NetlinkError(this.c.errno(), undefined);
    const out: DataView[] = [];
    for (;;) {
      const n = this.c.recv(this.fd, this.buf, this.buf.length, 0);
      if (n < 0) {
        const errno = this.c.errno();
        if (errno === EINTR) continue;
        throw new NetlinkError(errno, undefined);
      }
      // Copied: the next receive reuses the buffer.
      const datagram = this.buf.slice(0, n);
      for (const m of messages(datagram, n)) {
        if (m.seq !== seq) continue;
        if (m.type === K.NLMSG_ERROR) {
          const err = decodeError(m.payload, m.flags);
          if (err !== undefined) throw err;
          return out;
        }
        if (m.type === K.NLMSG_DONE) {
          const errno = m.payload.byteLength >= 4 ? -m.payload.getInt32(0, true) : 0;
          if (errno !== 0) throw new NetlinkError(errno, undefined);
          return out;
        }
        if (replyType === undefined || m.type === replyType) out.push(m.payload);
      }
    }
  }

  /**
   * Turns on strict checking of dump requests (NETLINK_GET_STRICT_CHK, Linux 4.20), as
   * iproute2 does on every socket: the kernel then honours the filters a dump's header
   * names (an address dump's `ifa_index`) instead of sending everything. False when the
   * kernel does not know the option; the caller then filters what it receives.
   */
  strict(): boolean {
    this.strictChecked ??=
      this.c.setsockopt(this.fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, Uint8Array.of(1, 0, 0, 0), 4) === 0;
    return this.strictChecked;
  }

  /** Closes the socket. */
  close(): void {
    this.c.close(this.fd);
  }
}
