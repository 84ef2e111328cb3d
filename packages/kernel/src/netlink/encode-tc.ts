/**
 * The traffic-control {@link TcOp}s as rtnetlink requests, byte for byte what the reference
 * bandwidth plugin's vishvananda/netlink sends (fixtures/reference-tc.json, captured with
 * strace from /usr/lib/cni/bandwidth): LinkAdd of an ifb, QdiscAdd of tbf and ingress,
 * FilterAdd of a match-all u32 with mirred redirects. Pure but for the index callback.
 */
import type { FilterAdd, IfbAdd, QdiscAdd, QdiscDel, TcOp } from "../ops-tc.ts";
import * as K from "./constants.ts";
import * as T from "./constants-tc.ts";
import type { EncodeContext } from "./encode.ts";
import { MessageBuilder } from "./wire.ts";

const REQ = K.NLM_F_REQUEST | K.NLM_F_ACK;
const CREATE = REQ | K.NLM_F_CREATE | K.NLM_F_EXCL;

/** `struct tcmsg`: family 0, the device, handle, parent and info. */
function tcmsg(m: MessageBuilder, ifindex: number, handle: number, parent: number, info = 0): MessageBuilder {
  return m.fixed(T.TCMSG_LEN, (v, at) => {
    v.setInt32(at + 4, ifindex, true);
    v.setUint32(at + 8, handle >>> 0, true);
    v.setUint32(at + 12, parent >>> 0, true);
    v.setUint32(at + 16, info >>> 0, true);
  });
}

function ifb(op: IfbAdd): MessageBuilder {
  const up = op.up === true ? K.IFF_UP : 0;
  const m = new MessageBuilder(K.RTM_NEWLINK, CREATE).fixed(16, (v, at) => {
    v.setUint32(at + 8, up, true);
    v.setUint32(at + 12, up, true);
  });
  m.str(K.IFLA_IFNAME, op.name);
  if (op.mtu !== undefined) m.u32(K.IFLA_MTU, op.mtu);
  if (op.txqlen !== undefined) m.u32(T.IFLA_TXQLEN, op.txqlen);
  // The kind without its NUL, as netlink.LinkAdd sends it (the kernel reads both alike).
  return m.nest(K.IFLA_LINKINFO).bytes(K.IFLA_INFO_KIND, new TextEncoder().encode("ifb")).end();
}

/** `struct tc_tbf_qopt` with only the rate, limit and buffer set (the reference leaves the rest 0). */
function tbfParms(rate: number, limit: number, buffer: number): Uint8Array {
  const b = new Uint8Array(T.TC_TBF_QOPT_LEN);
  const v = new DataView(b.buffer);
  // A rate of 2^32 bytes/s or more goes in TCA_TBF_RATE64; the 32-bit field keeps the low bits.
  v.setUint32(8, Number(BigInt(rate) & 0xffffffffn), true);
  v.setUint32(24, limit >>> 0, true);
  v.setUint32(28, buffer >>> 0, true);
  return b;
}

function qdiscAdd(op: QdiscAdd, ctx: EncodeContext): MessageBuilder {
  const m = tcmsg(new MessageBuilder(T.RTM_NEWQDISC, CREATE), ctx.index(op.dev), op.handle, op.parent);
  m.str(T.TCA_KIND, op.kind).nest(T.TCA_OPTIONS);
  if (op.kind === "tbf") {
    const p = op.tbf ?? { rate: 0, limit: 0, buffer: 0 };
    m.bytes(T.TCA_TBF_PARMS, tbfParms(p.rate, p.limit, p.buffer));
    if (p.rate >= 2 ** 32) {
      const r = new Uint8Array(8);
      new DataView(r.buffer).setBigUint64(0, BigInt(p.rate), true);
      m.bytes(T.TCA_TBF_RATE64, r);
    }
  }
  return m.end();
}

/** What `tc qdisc del dev DEV root|parent ffff:fff1` sends (lines-tc.ts): the parent alone, handle 0, no kind. */
function qdiscDel(op: QdiscDel, ctx: EncodeContext): MessageBuilder {
  return tcmsg(new MessageBuilder(T.RTM_DELQDISC, REQ), ctx.index(op.dev), 0, op.parent);
}

/** `struct tc_u32_sel` with one all-zero key: match every packet (netlink's U32 without Sel). */
function matchAll(): Uint8Array {
  const b = new Uint8Array(32);
  b[0] = T.TC_U32_TERMINAL;
  b[2] = 1; // nkeys
  return b;
}

function filterAdd(op: FilterAdd, ctx: EncodeContext): MessageBuilder {
  // tcm_info: priority in the upper 16 bits, the protocol in network byte order below.
  const proto = ((op.protocol & 0xff) << 8) | ((op.protocol >> 8) & 0xff);
  const m = tcmsg(
    new MessageBuilder(T.RTM_NEWTFILTER, CREATE),
    ctx.index(op.dev),
    0,
    op.parent,
    ((op.priority & 0xffff) << 16) | proto,
  );
  m.str(T.TCA_KIND, op.kind).nest(T.TCA_OPTIONS);
  m.bytes(T.TCA_U32_SEL, matchAll()).u32(T.TCA_U32_CLASSID, op.classId).nest(T.TCA_U32_ACT);
  op.actions.forEach((a, i) => {
    const parms = new Uint8Array(28);
    const v = new DataView(parms.buffer);
    v.setInt32(8, a.verdict === "stolen" ? T.TC_ACT_STOLEN : T.TC_ACT_OK, true);
    v.setInt32(20, T.TCA_EGRESS_REDIR, true);
    v.setUint32(24, ctx.index(a.dev), true);
    m.nest(i + 1)
      .str(T.TCA_ACT_KIND, a.kind)
      .nest(T.TCA_ACT_OPTIONS)
      .bytes(T.TCA_MIRRED_PARMS, parms)
      .end()
      .end();
  });
  return m.end().end();
}

/** The request for one traffic-control operation. */
export function encodeTcOp(op: TcOp, ctx: EncodeContext): MessageBuilder {
  switch (op.op) {
    case "ifb.add":
      return ifb(op);
    case "qdisc.add":
      return qdiscAdd(op, ctx);
    case "qdisc.del":
      return qdiscDel(op, ctx);
    case "filter.add":
      return filterAdd(op, ctx);
  }
}
