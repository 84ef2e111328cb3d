/**
 * The traffic-control {@link TcOp}s as the batch lines iproute2 reads: `ip link add ...
 * type ifb` for the ifb device and `tc -batch` lines for qdiscs and filters, so that
 * `cni plan` prints what the bandwidth plugin does and the iproute2 driver can apply it.
 * Pure.
 */
import { KernelError } from "./kernel.ts";
import type { OpLine } from "./lines.ts";
import {
  ETH_P_ALL,
  TC_H_INGRESS,
  TC_H_ROOT,
  type FilterAdd,
  type QdiscAdd,
  type QdiscDel,
  type TcOp,
} from "./ops-tc.ts";

const UNSAFE = /[\s"'\\]|^#|^$/;

function tok(value: string | number): string {
  const s = String(value);
  if (UNSAFE.test(s)) throw new KernelError("invalid", `value "${s}" cannot appear on a tc batch line`);
  return s;
}

/**
 * Scheduler ticks per microsecond: PSCHED_TICKS2NS is a fixed shift (1 tick = 64 ns) since
 * Linux 2.6.26, so /proc/net/psched always gives 1000/64 (what netlink.TickInUsec reads).
 */
export const TICKS_PER_USEC = 15.625;

/** A handle as tc prints it: `1:`, `ffff:`, `1:1`. */
export function handleText(h: number): string {
  const major = (h >>> 16).toString(16);
  const minor = h & 0xffff;
  return minor === 0 ? `${major}:` : `${major}:${minor.toString(16)}`;
}

function parentWords(parent: number): string[] {
  if (parent === TC_H_ROOT) return ["root"];
  if (parent === TC_H_INGRESS) return ["ingress"];
  return ["parent", handleText(parent)];
}

function qdiscAdd(op: QdiscAdd): string {
  const w = ["qdisc add dev", tok(op.dev)];
  if (op.kind === "ingress") return [...w, "handle", handleText(op.handle), "ingress"].join(" ");
  const p = op.tbf ?? { rate: 0, limit: 0, buffer: 0 };
  // tc takes the burst in bytes and derives the buffer (ticks) from it and the rate.
  const burst = p.rate === 0 ? 0 : Math.round(((p.buffer / TICKS_PER_USEC) * p.rate) / 1e6);
  return [
    ...w,
    ...parentWords(op.parent),
    "handle",
    handleText(op.handle),
    "tbf rate",
    `${tok(p.rate * 8)}bit`,
    "burst",
    tok(burst),
    "limit",
    tok(p.limit),
  ].join(" ");
}

/**
 * `tc qdisc del` by parent alone, as the netlink driver sends it (handle 0, no kind). Not
 * tc's `ingress` keyword: that sends handle `ffff:` too, and once a device has had an
 * ingress qdisc the kernel answers a second delete with EINVAL "Invalid handle" (its
 * ingress slot holds the handle-0 noop qdisc) where a handle-0 delete gets ENOENT, which
 * the fake and the netlink driver report as not-found (sch_api.c tc_get_qdisc).
 */
function qdiscDel(op: QdiscDel): string {
  const where = op.parent === TC_H_ROOT ? ["root"] : ["parent", handleText(op.parent)];
  return ["qdisc del dev", tok(op.dev), ...where].join(" ");
}

function filterAdd(op: FilterAdd): string {
  const proto = op.protocol === ETH_P_ALL ? "all" : `0x${op.protocol.toString(16).padStart(4, "0")}`;
  const w = [
    "filter add dev",
    tok(op.dev),
    "parent",
    handleText(op.parent),
    "protocol",
    proto,
    "prio",
    tok(op.priority),
    op.kind,
    "match u32 0 0 flowid",
    handleText(op.classId),
  ];
  // tc gives a redirect no verdict but `stolen` (m_mirred parses a control word only after
  // `mirror`; a `pass` would start a gact action). The reference's second action, `pass`,
  // never runs after a stolen one, so the printed filter redirects the same packets.
  for (const a of op.actions) w.push("action mirred egress redirect dev", tok(a.dev));
  return w.join(" ");
}

/** Renders one traffic-control operation for its tool. Throws KernelError `invalid` for an unsafe value. */
export function renderTcOp(op: TcOp): OpLine {
  switch (op.op) {
    case "ifb.add": {
      const w = ["link add", tok(op.name)];
      if (op.mtu !== undefined) w.push("mtu", tok(op.mtu));
      if (op.txqlen !== undefined) w.push("txqueuelen", tok(op.txqlen));
      if (op.up === true) w.push("up");
      w.push("type ifb");
      return { tool: "ip", line: w.join(" ") };
    }
    case "qdisc.add":
      return { tool: "tc", line: qdiscAdd(op) };
    case "qdisc.del":
      return { tool: "tc", line: qdiscDel(op) };
    case "filter.add":
      return { tool: "tc", line: filterAdd(op) };
  }
}
