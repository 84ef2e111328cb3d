/**
 * Creating links: `veth.add` (the peer is created first, directly in its namespace, as the
 * kernel does, so it gets the lower index when both ends share a namespace), `bridge.add`
 * and `vlan.add`. New links start down with per-interface sysctls inherited from `default`.
 */
import { KernelError, type BridgeAdd, type VethAdd, type VlanAdd } from "../index.ts";
import { findLink, nextIndex, nextMac, requireLink, requireNs, type Link, type NsState, type World } from "./state.ts";
import { newIfSysctls } from "./sysctl-store.ts";

/** Throws `invalid` unless the name is a valid interface name (1-15 bytes, no `/`, `:` or space). */
export function checkName(name: string): void {
  const bytes = new TextEncoder().encode(name).length;
  if (bytes === 0 || bytes > 15 || /[\s/:]/.test(name) || name === "." || name === "..") {
    throw new KernelError("invalid", `invalid interface name "${name}"`);
  }
}

/** Throws `exists` when the name is taken in the namespace. */
export function checkFree(ns: NsState, name: string): void {
  if (findLink(ns, name)) throw new KernelError("exists", `device "${name}" already exists in netns "${ns.path}"`);
}

/** Throws `invalid` unless `mac` is a unicast Ethernet address; returns it in lower case. */
export function checkMac(mac: string): string {
  const m = mac.toLowerCase();
  if (
    !/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(m) ||
    (parseInt(m.slice(0, 2), 16) & 1) === 1 ||
    m === "00:00:00:00:00:00"
  ) {
    throw new KernelError("invalid", `invalid MAC address "${mac}"`);
  }
  return m;
}

/** Throws `invalid` unless the MTU is within what the kernel accepts (68-65535). */
export function checkMtu(mtu: number): number {
  if (!Number.isInteger(mtu) || mtu < 68 || mtu > 65535) throw new KernelError("invalid", `invalid MTU "${mtu}"`);
  return mtu;
}

/** Adds a link to a namespace with a fresh index and its per-interface sysctls. */
export function insertLink(ns: NsState, link: Omit<Link, "index">): Link {
  const full: Link = { ...link, index: nextIndex(ns) };
  ns.links.set(full.index, full);
  ns.ifSysctls.set(full.index, newIfSysctls(ns));
  return full;
}

function base(world: World, name: string, mtu: number | undefined, mac: string | undefined) {
  return {
    name,
    mtu: checkMtu(mtu ?? 1500),
    mac: mac === undefined ? nextMac(world) : checkMac(mac),
    up: false,
    promisc: false,
  };
}

/** `veth.add`: both ends, each in its own namespace, peers of each other. */
export function addVeth(world: World, op: VethAdd): void {
  const ns = requireNs(world, op.ns);
  const peerNs = requireNs(world, op.peer.ns);
  checkName(op.name);
  checkName(op.peer.name);
  checkFree(ns, op.name);
  checkFree(peerNs, op.peer.name);
  if (ns === peerNs && op.name === op.peer.name)
    throw new KernelError("exists", `device "${op.name}" already exists in netns "${ns.path}"`);
  const peer = insertLink(peerNs, { kind: "veth", ...base(world, op.peer.name, op.peer.mtu, op.peer.mac) });
  const self = insertLink(ns, { kind: "veth", ...base(world, op.name, op.mtu, op.mac) });
  self.peer = { ns: peerNs.path, index: peer.index };
  peer.peer = { ns: ns.path, index: self.index };
}

/** `bridge.add`: a bridge with VLAN 1 (or `defaultPvid`) on itself. */
export function addBridge(world: World, op: BridgeAdd): void {
  const ns = requireNs(world, op.ns);
  checkName(op.name);
  checkFree(ns, op.name);
  const defaultPvid = op.defaultPvid ?? 1;
  const vlans = new Map(defaultPvid === 0 ? [] : [[defaultPvid, { pvid: true, untagged: true }]]);
  insertLink(ns, {
    kind: "bridge",
    ...base(world, op.name, op.mtu, undefined),
    vlanFiltering: op.vlanFiltering ?? false,
    defaultPvid,
    vlans,
  });
}

/** `vlan.add`: a VLAN link on a parent of the same namespace; it takes the parent's MAC and MTU. */
export function addVlan(world: World, op: VlanAdd): void {
  const ns = requireNs(world, op.ns);
  checkName(op.name);
  const parent = requireLink(ns, op.parent);
  checkFree(ns, op.name);
  if (!Number.isInteger(op.id) || op.id < 0 || op.id > 4094)
    throw new KernelError("invalid", `invalid VLAN id "${op.id}"`);
  if (parent.kind === "loopback") throw new KernelError("invalid", `cannot add a VLAN on "${parent.name}"`);
  for (const l of ns.links.values()) {
    if (l.kind === "vlan" && l.parent === parent.index && l.vlanId === op.id) {
      throw new KernelError("exists", `VLAN "${op.id}" already exists on "${parent.name}"`);
    }
  }
  insertLink(ns, {
    kind: "vlan",
    name: op.name,
    mtu: parent.mtu,
    mac: parent.mac,
    up: false,
    promisc: false,
    vlanId: op.id,
    parent: parent.index,
  });
}
