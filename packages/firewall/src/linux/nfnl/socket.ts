/**
 * A NETLINK_NETFILTER socket for nf_tables: one batch (NFNL_MSG_BATCH_BEGIN, the
 * messages, NFNL_MSG_BATCH_END) per transaction, every message acked, which the kernel
 * applies all or nothing; and dumps for the reader. Synchronous, like the `nft` spawn it
 * replaces: the kernel handles a batch inside our send(2), so its answers are already
 * queued when send returns. Opened in the plugin's namespace (P-1), or in `ns` (tests).
 */
import { attrs, attrStr, type Libc, libc, MessageBuilder, messages, NetlinkError, within } from "@tscni/kernel/netlink";
import { FirewallError } from "../../firewall.ts";
import * as C from "./const.ts";

const AF_NETLINK = 16;
const SOCK_RAW = 3;
const SOCK_CLOEXEC = 0x80000;
const SOL_NETLINK = 270;
const NETLINK_CAP_ACK = 10;
const NETLINK_EXT_ACK = 11;
const MSG_DONTWAIT = 0x40;
const EINTR = 4;
const EAGAIN = 11;
const NLMSG_ERROR = 2;
const NLMSG_DONE = 3;
const NLM_F_ACK_TLVS = 0x200;

/** An nf_tables message: nlmsg type, flags and the nfgenmsg header (family, version 0, res_id). */
export function nftMessage(type: number, flags: number, family: number, resId = 0): MessageBuilder {
  return new MessageBuilder(type, flags).fixed(4, (v, at) => {
    v.setUint8(at, family);
    v.setUint16(at + 2, resId, false);
  });
}

/**
 * The bytes of one batch: BATCH_BEGIN, `msgs`, BATCH_END, numbered from `firstSeq`.
 * Without the END (`end` false) the kernel validates every message, answers each, and
 * aborts instead of committing: what `nft --check` sends (checkOnly below).
 */
export function batchBytes(msgs: readonly MessageBuilder[], firstSeq: number, end = true): Uint8Array {
  const parts = [
    nftMessage(C.NFNL_MSG_BATCH_BEGIN, C.NLM_F.REQUEST, 0, C.NFNL_SUBSYS_NFTABLES),
    ...msgs,
    ...(end ? [nftMessage(C.NFNL_MSG_BATCH_END, C.NLM_F.REQUEST, 0, C.NFNL_SUBSYS_NFTABLES)] : []),
  ];
  const built = parts.map((m, i) => m.build(firstSeq + i).slice());
  const bytes = new Uint8Array(built.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of built) {
    bytes.set(b, at);
    at += b.length;
  }
  return bytes;
}

/** The errno and extended ack of an NLMSG_ERROR payload, or undefined for an ack. */
function errorOf(p: DataView, flags: number): NetlinkError | undefined {
  const errno = -p.getInt32(0, true);
  if (errno === 0) return undefined;
  // With NETLINK_CAP_ACK only the request's header is echoed (16 bytes) before the TLVs.
  const extack = (flags & NLM_F_ACK_TLVS) !== 0 ? attrStr(attrs(p, 20).get(1)) : undefined;
  return new NetlinkError(errno, extack);
}

/** An open nfnetlink socket. */
export class NfnlSocket {
  private seq = (Date.now() & 0xffff) << 8;
  private readonly buf = new Uint8Array(1 << 17);
  private constructor(
    private readonly c: Libc,
    private readonly fd: number,
  ) {}

  /** Opens a socket in namespace `ns` (a path), or in the calling thread's namespace. */
  static async open(ns?: string): Promise<NfnlSocket> {
    const c = await libc();
    const fd = within(c, ns, () => c.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, C.NETLINK_NETFILTER));
    if (fd < 0) throw new FirewallError(`cannot open a netfilter netlink socket: errno ${c.errno()}`);
    const one = Uint8Array.of(1, 0, 0, 0);
    c.setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, one, 4);
    c.setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, one, 4);
    return new NfnlSocket(c, fd);
  }

  private send(bytes: Uint8Array): void {
    if (this.c.send(this.fd, bytes, bytes.length, 0) < 0) throw new NetlinkError(this.c.errno(), undefined);
  }

  /** One receive; undefined when `nonBlocking` and nothing is queued. */
  private recv(nonBlocking: boolean): Uint8Array | undefined {
    for (;;) {
      const n = this.c.recv(this.fd, this.buf, this.buf.length, nonBlocking ? MSG_DONTWAIT : 0);
      if (n >= 0) return this.buf.slice(0, n);
      const errno = this.c.errno();
      if (errno === EINTR) continue;
      if (errno === EAGAIN && nonBlocking) return undefined;
      throw new NetlinkError(errno, undefined);
    }
  }

  /**
   * Sends `msgs` as one batch and checks every ack; throws the first refusal (the kernel
   * then applied none of it). The messages must carry NLM_F_ACK. With `checkOnly` the
   * kernel only validates them and applies nothing in any case.
   */
  batch(msgs: readonly MessageBuilder[], checkOnly = false): void {
    const first = this.seq;
    this.seq += msgs.length + 2;
    // checkOnly: the kernel validates and aborts (no BATCH_END), as `nft --check` asks it.
    this.send(batchBytes(msgs, first, !checkOnly));
    let acked = 0;
    let error: NetlinkError | undefined;
    for (let d = this.recv(true); d !== undefined; d = this.recv(true)) {
      for (const m of messages(d, d.length)) {
        if (m.type !== NLMSG_ERROR || m.seq < first || m.seq >= this.seq) continue;
        const e = errorOf(m.payload, m.flags);
        if (e === undefined) acked++;
        else error ??= e;
      }
    }
    if (error !== undefined) throw error;
    if (acked !== msgs.length) throw new FirewallError(`nfnetlink: ${acked} of ${msgs.length} messages acknowledged`);
  }

  /** Sends one request and returns the payloads of its replies up to the ack or NLMSG_DONE. */
  request(msg: MessageBuilder): DataView[] {
    const seq = this.seq++;
    this.send(msg.build(seq));
    const out: DataView[] = [];
    for (;;) {
      const d = this.recv(false) as Uint8Array;
      for (const m of messages(d, d.length)) {
        if (m.seq !== seq) continue;
        if (m.type === NLMSG_ERROR) {
          const e = errorOf(m.payload, m.flags);
          if (e !== undefined) throw e;
          return out;
        }
        if (m.type === NLMSG_DONE) return out;
        out.push(m.payload);
      }
    }
  }

  /** Closes the socket. */
  close(): void {
    this.c.close(this.fd);
  }
}
