/**
 * Traffic-control changes as data (the kernel seam, ARCHITECTURE.md): the ifb device, the
 * qdiscs and the filter the bandwidth plugin installs, in the kernel's own units, so the
 * netlink encoder sends exactly what the reference's vishvananda/netlink sends
 * (fixtures/reference-tc.json) and `cni plan` prints them as `tc` lines.
 */
import type { Netns } from "./ops.ts";

/** `TC_H_ROOT`: a qdisc's parent when it is the device's root (egress) qdisc. */
export const TC_H_ROOT = 0xffffffff;
/** `TC_H_INGRESS`: the parent of the ingress (and clsact) qdisc. */
export const TC_H_INGRESS = 0xfffffff1;
/** `ETH_P_ALL`: a filter that sees every protocol (`protocol all`). */
export const ETH_P_ALL = 0x0003;

/** A tc handle `major:minor` as one 32-bit number (netlink.MakeHandle). */
export function tcHandle(major: number, minor: number): number {
  return (((major & 0xffff) << 16) | (minor & 0xffff)) >>> 0;
}

/** Add an intermediate functional block device (bandwidth's egress shaping target). */
export interface IfbAdd {
  op: "ifb.add";
  ns: Netns;
  name: string;
  mtu?: number;
  /** `IFLA_TXQLEN`; the reference sends 0 (ifb_creator.go's TxQLen: 0). */
  txqlen?: number;
  /** Created administratively up (IFF_UP in the request, as netlink.LinkAdd with FlagUp). */
  up?: boolean;
}

/**
 * Token bucket parameters as `struct tc_tbf_qopt` carries them: `rate` in bytes per second,
 * `limit` in bytes, `buffer` in scheduler ticks (the time to send the burst at `rate`).
 */
export interface TbfParams {
  rate: number;
  limit: number;
  buffer: number;
}

/** Add a qdisc: a token bucket filter (`tbf`) or the `ingress` qdisc. */
export interface QdiscAdd {
  op: "qdisc.add";
  ns: Netns;
  dev: string;
  kind: "tbf" | "ingress";
  /** The qdisc's handle (`1:` is 0x10000, `ffff:` 0xffff0000). */
  handle: number;
  /** {@link TC_H_ROOT}, {@link TC_H_INGRESS} or a class handle. */
  parent: number;
  /** For `tbf` only. */
  tbf?: TbfParams;
}

/** Delete the qdisc at `parent` of a device (its children and filters go with it). */
export interface QdiscDel {
  op: "qdisc.del";
  ns: Netns;
  dev: string;
  parent: number;
}

/** A mirred action: redirect (or mirror) the packet to `dev`'s egress. */
export interface MirredAction {
  kind: "mirred";
  /** `TCA_EGRESS_REDIR`. */
  action: "egress-redirect";
  dev: string;
  /** The action's verdict: `stolen` (TC_ACT_STOLEN) or `pass` (TC_ACT_OK). */
  verdict: "stolen" | "pass";
}

/** Add a u32 filter matching every packet (one all-zero key), with its actions in order. */
export interface FilterAdd {
  op: "filter.add";
  ns: Netns;
  dev: string;
  /** The qdisc the filter hangs on (`ffff:` is 0xffff0000). */
  parent: number;
  priority: number;
  /** An ethertype; {@link ETH_P_ALL} for `protocol all`. */
  protocol: number;
  kind: "u32";
  /** `flowid`/`classid` (TCA_U32_CLASSID). */
  classId: number;
  actions: MirredAction[];
}

/** One traffic-control change. */
export type TcOp = IfbAdd | QdiscAdd | QdiscDel | FilterAdd;

/** A qdisc as read back (RTM_GETQDISC): what CHECK compares. */
export interface QdiscInfo {
  dev: string;
  /** `tbf`, `ingress`, `noqueue`, `pfifo_fast`, `mq`, ... */
  kind: string;
  handle: number;
  parent: number;
  /** For `tbf`: its parameters (the 64-bit rate when the kernel gives one). */
  tbf?: TbfParams;
}
