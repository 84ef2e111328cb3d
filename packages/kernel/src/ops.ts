/**
 * Kernel changes as data (ARCHITECTURE.md "The kernel seam"). A plugin computes a list of
 * these before touching anything; the Linux driver applies them batched per namespace,
 * the fake kernel (`@tscni/kernel/fake`) interprets them, and `cni plan` prints them as iproute2 lines.
 *
 * Every operation names the network namespace it runs in: `ns` is a netns path
 * (`/var/run/netns/x`, `/proc/123/ns/net`) or `HOST` for the namespace the plugin
 * itself runs in (the runtime's namespace, P-1).
 */

import type { DummyAdd, IpvlanAdd, MacvlanAdd } from "./ops-sublinks.ts";

export type { DummyAdd, IpvlanAdd, IpvlanFlag, IpvlanMode, MacvlanAdd, MacvlanMode } from "./ops-sublinks.ts";
import type { TcOp } from "./ops-tc.ts";

/** The plugin's own network namespace (P-1). */
export const HOST = "host" as const;

/** A network namespace: a netns path, or {@link HOST}. */
export type Netns = string;

/** Add a veth pair: `name` in `ns`, its peer `peer.name` created directly in `peer.ns`. */
export interface VethAdd {
  op: "veth.add";
  ns: Netns;
  name: string;
  mtu?: number;
  mac?: string;
  peer: { name: string; ns: Netns; mtu?: number; mac?: string };
}

/** Add a Linux bridge. */
export interface BridgeAdd {
  op: "bridge.add";
  ns: Netns;
  name: string;
  mtu?: number;
  vlanFiltering?: boolean;
  /** When set, the bridge's default PVID (0 disables VLAN 1 as the default). */
  defaultPvid?: number;
}

/** Add a VLAN sub-interface `name` on `parent` (for bridge `vlan` gateways). */
export interface VlanAdd {
  op: "vlan.add";
  ns: Netns;
  name: string;
  parent: string;
  id: number;
  /** 0 or unset: the parent's MTU. */
  mtu?: number;
  /** Create it in this namespace (IFLA_NET_NS_FD), as the vlan plugin does (ops-sublinks.ts). */
  into?: Netns;
}

/**
 * Add a persistent tap device (`ip tuntap add`: TUNSETIFF, owner, group, TUNSETPERSIST on
 * /dev/net/tun; the kernel refuses tun creation over rtnetlink). MTU and MAC are set
 * afterwards with {@link LinkSet}, as `ip` does.
 */
export interface TapAdd {
  op: "tap.add";
  ns: Netns;
  name: string;
  /** Owner uid / group gid allowed to attach (TUNSETOWNER / TUNSETGROUP). */
  owner?: number;
  group?: number;
  multiQueue?: boolean;
  /** Keep the packet-information header (IFF_NO_PI unset). */
  pi?: boolean;
  /** IFF_VNET_HDR. */
  vnetHdr?: boolean;
}

/** Change attributes of an existing link; only the fields given are changed. */
export interface LinkSet {
  op: "link.set";
  ns: Netns;
  name: string;
  up?: boolean;
  mtu?: number;
  mac?: string;
  /** Enslave to this bridge; `null` releases it from its master. */
  master?: string | null;
  promisc?: boolean;
  /** Rename the link. */
  newName?: string;
  /** IFF_ALLMULTI: receive all multicast (`allmulticast on|off`; tuning's `allmulti`). */
  allmulti?: boolean;
  /** The transmit queue length (`txqueuelen`; tuning's `txQLen`). */
  txQLen?: number;
  /** Set the link's alias (IFLA_IFALIAS); `""` clears it (host-device keeps the original name there). */
  alias?: string;
}

/** Bridge-port flags of a link enslaved to a bridge. */
export interface BridgePortSet {
  op: "bridge-port.set";
  ns: Netns;
  name: string;
  hairpin?: boolean;
  isolated?: boolean;
}

/** Add or remove a VLAN on a bridge port (`bridge vlan add|del`). */
export interface BridgeVlan {
  op: "bridge-vlan.add" | "bridge-vlan.del";
  ns: Netns;
  dev: string;
  vid: number;
  pvid?: boolean;
  untagged?: boolean;
  /** Apply to the bridge device itself (`self`). */
  self?: boolean;
}

/** Move a link to another namespace; it gets a new index there. */
export interface LinkMove {
  op: "link.move";
  ns: Netns;
  name: string;
  to: Netns;
}

/** Delete a link (a veth takes its peer with it). */
export interface LinkDel {
  op: "link.del";
  ns: Netns;
  name: string;
}

/** Add or delete an address (`cidr` keeps the host bits, e.g. `198.18.0.5/24`). */
export interface AddrOp {
  op: "addr.add" | "addr.del";
  ns: Netns;
  dev: string;
  cidr: string;
  /** IPv6: skip duplicate address detection. */
  nodad?: boolean;
  /**
   * `addr.add`, IPv4 only: the broadcast address (`IFA_BROADCAST`). The kernel sets none
   * by itself; the reference's netlink AddrAdd sends the subnet's last address below /31.
   */
  broadcast?: string;
  /** Do not add the automatic prefix route. */
  noprefixroute?: boolean;
  scope?: RouteScope;
}

/** Route scopes as iproute2 names them (the result's numeric 0/253/254, §3.4). */
export type RouteScope = "global" | "link" | "host";

/** Add or delete a route. */
export interface RouteOp {
  op: "route.add" | "route.del";
  ns: Netns;
  /** Destination CIDR; `0.0.0.0/0` or `::/0` for a default route. */
  dst: string;
  gw?: string;
  dev?: string;
  src?: string;
  scope?: RouteScope;
  table?: number;
  metric?: number;
  mtu?: number;
  advmss?: number;
  onlink?: boolean;
  /**
   * `route.add` only: add as the reference's ConfigureIface does (netlink RouteAddEcmp,
   * NLM_F_CREATE without NLM_F_EXCL: `ip route prepend`), so a route to the same
   * destination and metric through another device or gateway is kept beside the first
   * (ECMP, H-2). IPv4 keeps them as separate routes, the newest first (it is the one
   * IPv4 uses); IPv6 merges gateway routes into one multipath route, which reads report
   * as one {@link RouteInfo} per nexthop. Only the same route again is `exists`.
   * `route.del` ignores it.
   */
  prepend?: boolean;
  /** `route.add` only: replace the route with the same key, or add it (`ip route replace`, NLM_F_REPLACE). */
  replace?: boolean;
  /** `route.add` only: the route's protocol (`kernel` when sbr moves a prefix route); default `boot`. */
  protocol?: "kernel" | "boot" | "static";
}

/** Set a sysctl inside a namespace; `key` is dotted (`net.ipv4.ip_forward`). */
export interface SysctlSet {
  op: "sysctl.set";
  ns: Netns;
  key: string;
  value: string;
}

/** Policy rules and VRF devices (issue 12 item 3) live in their own files. */
export type { RuleOp } from "./rule.ts";
export type { VrfAdd } from "./vrf.ts";
import type { RuleOp } from "./rule.ts";
import type { VrfAdd } from "./vrf.ts";

/** One kernel change. */
export type KernelOp =
  | VethAdd
  | BridgeAdd
  | VlanAdd
  | TapAdd
  | LinkSet
  | BridgePortSet
  | BridgeVlan
  | LinkMove
  | LinkDel
  | AddrOp
  | RouteOp
  | SysctlSet
  | RuleOp
  | VrfAdd
  | MacvlanAdd
  | IpvlanAdd
  | DummyAdd
  | TcOp;

/** A batch: applied in order, stopping at the first failure. */
export type KernelBatch = readonly KernelOp[];
