/**
 * Link kinds that hang off a lower device (macvlan, ipvlan) or stand alone (dummy), as the
 * interface plugins create them (issue 13). Like the
 * reference, a child is created in the namespace of its lower device (`ns`) and, with
 * `into`, placed in another namespace by the same request (IFLA_NET_NS_FD), so it never
 * exists under its temporary name where the host could see it.
 */
import type { Netns } from "./ops.ts";

/** macvlan modes (`ip link add ... type macvlan mode M`). */
export type MacvlanMode = "private" | "vepa" | "bridge" | "passthru" | "source";

/** ipvlan modes. */
export type IpvlanMode = "l2" | "l3" | "l3s";

/** ipvlan flags: `bridge` is the kernel's default. */
export type IpvlanFlag = "bridge" | "private" | "vepa";

/** Add a macvlan `name` on `parent` (a link of `ns`), created in `into` when set. */
export interface MacvlanAdd {
  op: "macvlan.add";
  ns: Netns;
  name: string;
  parent: string;
  mode: MacvlanMode;
  mtu?: number;
  mac?: string;
  /** IFLA_MACVLAN_BC_QUEUE_LEN; unset keeps the kernel's default (1000). */
  bcqueuelen?: number;
  into?: Netns;
}

/** Add an ipvlan `name` on `parent` (a link of `ns`), created in `into` when set. */
export interface IpvlanAdd {
  op: "ipvlan.add";
  ns: Netns;
  name: string;
  parent: string;
  mode: IpvlanMode;
  /** Unset means `bridge` (the kernel's default); the request always carries the flag, as iproute2's and the reference's do. */
  flag?: IpvlanFlag;
  mtu?: number;
  into?: Netns;
}

/** Add a dummy link. */
export interface DummyAdd {
  op: "dummy.add";
  ns: Netns;
  name: string;
  mtu?: number;
  mac?: string;
}
