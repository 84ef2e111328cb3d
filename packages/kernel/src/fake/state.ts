/**
 * The fake kernel's in-memory model: one table of links, addresses, routes and sysctls
 * per network namespace. Mutated only by the op interpreters (links.ts, addresses.ts,
 * routes.ts, sysctls.ts); read through snapshots.
 */
import { KernelError, type Netns, type RouteScope } from "../index.ts";
import { type IP, type IPNet } from "@tscni/spec/ipnet";
import type { FakeRule } from "./fake-rules.ts";

/** Link kinds the fake kernel models. */
export type LinkKind = "loopback" | "veth" | "bridge" | "vlan" | "vrf" | "macvlan" | "ipvlan" | "dummy" | "ifb" | "tun";

/** A VLAN entry on a bridge port or bridge (`bridge vlan`). */
export interface VlanEntry {
  pvid: boolean;
  untagged: boolean;
}

/** One network interface. Bridges, parents and peers are referenced by index. */
export interface Link {
  index: number;
  name: string;
  kind: LinkKind;
  mac: string;
  mtu: number;
  up: boolean;
  promisc: boolean;
  /** IFF_ALLMULTI as the user set it; unset reads as off (link-tuning.ts). */
  allmulti?: boolean;
  /** The transmit queue length; unset reads as the kernel's default (link-tuning.ts). */
  txQLen?: number;
  /** Index of the bridge this link is enslaved to (same namespace). */
  master?: number;
  /** For a veth: where its peer lives. */
  peer?: { ns: Netns; index: number };
  hairpin?: boolean;
  isolated?: boolean;
  vlanFiltering?: boolean;
  /** For a bridge: its MTU was changed by `link.set`, so it no longer follows its ports' (br_mtu_auto_adjust). */
  mtuSetByUser?: boolean;
  defaultPvid?: number;
  vlans?: Map<number, VlanEntry>;
  /** For a vlan link: its id and parent's index. */
  vlanId?: number;
  parent?: number;
  /** For a VRF: its routing table (fake-vrf.ts). */
  vrfTable?: number;
  /** For a macvlan, an ipvlan or a vlan born in another namespace: its lower device, wherever it lives (fake-sublinks.ts). */
  lower?: { ns: Netns; index: number };
  macvlanMode?: string;
  ipvlanMode?: string;
  ipvlanFlag?: string;
  /** For a tap: who may attach, and its TUNSETIFF flags (fake-tap.ts). */
  tap?: { owner?: number; group?: number; multiQueue: boolean; pi: boolean; vnetHdr: boolean };
  /** The link's alias (IFLA_IFALIAS). */
  alias?: string;
  /** IPv6 addrconf ran since the link last came up (its link-local address was made). */
  addrconfDone?: boolean;
  /** Qdiscs and filters (fake-tc.ts). */
  tc?: import("./fake-tc.ts").LinkTc;
}

/** An address on a link. */
export interface Addr {
  link: number;
  cidr: IPNet;
  scope: RouteScope;
  noprefixroute: boolean;
  /** IPv4: the broadcast address `addr.add` gave. */
  broadcast?: IP;
}

/** A route of the main table (or `table`). `dev` is a link index. */
export interface Route {
  dst: IPNet;
  gw?: IP;
  dev: number;
  src?: IP;
  scope: RouteScope;
  table?: number;
  metric?: number;
  mtu?: number;
  advmss?: number;
  onlink?: boolean;
  protocol: "kernel" | "boot" | "static";
}

/** One network namespace. */
export interface NsState {
  path: Netns;
  links: Map<number, Link>;
  /** Last index handed out: indexes only grow (like the kernel's per-netns counter). */
  lastIndex: number;
  addrs: Addr[];
  routes: Route[];
  /** Namespace-wide sysctls (`net.ipv4.ip_forward`, `net.ipv6.conf.all.*`, ...). */
  sysctls: Map<string, string>;
  /** Per-interface sysctls by link index, leaf name to value. */
  ifSysctls: Map<number, Map<string, string>>;
  /** Policy rules (fake-rules.ts); the defaults until the first rule op or read. */
  rules?: FakeRule[];
}

/** Every namespace of the fake machine, and the MAC generator's state. */
export interface World {
  namespaces: Map<Netns, NsState>;
  macSeed: number;
}

/** The namespace, or a `netns-gone` KernelError. */
export function requireNs(world: World, ns: Netns): NsState {
  const state = world.namespaces.get(ns);
  if (!state) throw new KernelError("netns-gone", `failed to open netns "${ns}": no such file or directory`);
  return state;
}

/** The link with this name, or undefined. */
export function findLink(ns: NsState, name: string): Link | undefined {
  for (const link of ns.links.values()) if (link.name === name) return link;
  return undefined;
}

/** The link with this name, or a `not-found` KernelError. */
export function requireLink(ns: NsState, name: string): Link {
  const link = findLink(ns, name);
  if (!link) throw new KernelError("not-found", `cannot find device "${name}" in netns "${ns.path}"`);
  return link;
}

/** The next interface index of a namespace. */
export function nextIndex(ns: NsState): number {
  ns.lastIndex += 1;
  return ns.lastIndex;
}

/** A deterministic locally administered unicast MAC (mulberry32 over the world's seed). */
export function nextMac(world: World): string {
  const bytes: number[] = [];
  for (let i = 0; i < 6; i++) {
    world.macSeed = (world.macSeed + 0x6d2b79f5) | 0;
    let t = world.macSeed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    bytes.push(((t ^ (t >>> 14)) >>> 0) & 0xff);
  }
  bytes[0] = ((bytes[0] ?? 0) & 0xfe) | 0x02;
  return bytes.map((b) => b.toString(16).padStart(2, "0")).join(":");
}
