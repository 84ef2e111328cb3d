/**
 * Changing links: `link.set` (down first, then MTU, MAC, name, master, promisc, then up,
 * so `{ up: true, newName }` renames before the link comes up as the kernel requires),
 * bridge-port flags, bridge VLANs, `link.move` and `link.del`.
 */
import {
  KernelError,
  type BridgePortSet,
  type BridgeVlan,
  type LinkDel,
  type LinkMove,
  type LinkSet,
} from "../index.ts";
import { onLinkUp } from "./connected.ts";
import { checkFree, checkMac, checkMtu, checkName } from "./link-create.ts";
import { adjustBridgeMtu, detach, release, removeChildren, removeLink, setDown } from "./link-remove.ts";
import { nextIndex, requireLink, requireNs, type Link, type NsState, type World } from "./state.ts";
import { newIfSysctls } from "./sysctl-store.ts";
import { setTuning } from "./link-tuning.ts";
import { enslaveToVrf } from "./fake-vrf.ts";

function enslave(ns: NsState, link: Link, masterName: string): void {
  const bridge = requireLink(ns, masterName);
  if (bridge.kind === "vrf") return enslaveToVrf(ns, link, bridge, release);
  if (bridge.kind !== "bridge") throw new KernelError("invalid", `"${masterName}" is not a bridge`);
  if (bridge === link || link.kind === "bridge" || link.kind === "loopback") {
    throw new KernelError("invalid", `cannot enslave "${link.name}" to "${masterName}"`);
  }
  if (link.master === bridge.index) return;
  if (link.master !== undefined) release(ns, link);
  link.master = bridge.index;
  link.hairpin = false;
  link.isolated = false;
  const pvid = bridge.defaultPvid ?? 1;
  link.vlans = new Map(pvid === 0 ? [] : [[pvid, { pvid: true, untagged: true }]]);
  adjustBridgeMtu(ns, bridge.index);
}

/** `link.set`: only the fields given change. */
export function setLink(world: World, op: LinkSet): void {
  const ns = requireNs(world, op.ns);
  const link = requireLink(ns, op.name);
  // iproute2 resolves the master's name before sending anything: a missing one changes nothing.
  if (typeof op.master === "string") requireLink(ns, op.master);
  if (op.up === false) setDown(ns, link);
  if (op.mtu !== undefined) {
    const mtu = checkMtu(op.mtu);
    // Only a change counts as the user's choice (dev_set_mtu skips an equal value).
    if (link.kind === "bridge" && mtu !== link.mtu) link.mtuSetByUser = true;
    link.mtu = mtu;
    if (link.master !== undefined) adjustBridgeMtu(ns, link.master);
  }
  if (op.mac !== undefined) {
    if (link.kind === "loopback") throw new KernelError("invalid", `cannot change the MAC address of "${link.name}"`);
    link.mac = checkMac(op.mac);
  }
  if (op.newName !== undefined && op.newName !== link.name) {
    checkName(op.newName);
    checkFree(ns, op.newName);
    // The kernel refuses to rename an up link (EBUSY).
    if (link.up)
      throw new KernelError("invalid", `cannot rename "${link.name}" while it is up: device or resource busy`);
    link.name = op.newName;
  }
  if (op.master === null && link.master !== undefined) release(ns, link);
  if (typeof op.master === "string") enslave(ns, link, op.master);
  if (op.promisc !== undefined) link.promisc = op.promisc;
  setTuning(link, op);
  if (op.alias !== undefined) link.alias = op.alias;
  if (op.up === true && !link.up) {
    link.up = true;
    onLinkUp(ns, link);
  }
}

/** `bridge-port.set`: hairpin / isolated flags of a bridge port. */
export function setBridgePort(world: World, op: BridgePortSet): void {
  const ns = requireNs(world, op.ns);
  const link = requireLink(ns, op.name);
  // With no flag to set, iproute2 sends no port attributes and Linux accepts it on any
  // link; with one, a link that is not a bridge port answers EOPNOTSUPP.
  if (op.hairpin === undefined && op.isolated === undefined) return;
  if (link.master === undefined) throw new KernelError("invalid", `"${op.name}" is not a bridge port`);
  if (op.hairpin !== undefined) link.hairpin = op.hairpin;
  if (op.isolated !== undefined) link.isolated = op.isolated;
}

/** `bridge-vlan.add|del` on a port, or on the bridge itself with `self`. */
export function bridgeVlan(world: World, op: BridgeVlan): void {
  const ns = requireNs(world, op.ns);
  const link = requireLink(ns, op.dev);
  if (op.self ? link.kind !== "bridge" : link.master === undefined) {
    throw new KernelError("invalid", `"${op.dev}" is not a bridge${op.self ? "" : " port"}`);
  }
  if (!Number.isInteger(op.vid) || op.vid < 1 || op.vid > 4094)
    throw new KernelError("invalid", `invalid VLAN id "${op.vid}"`);
  const vlans = (link.vlans ??= new Map());
  if (op.op === "bridge-vlan.del") {
    if (!vlans.delete(op.vid)) throw new KernelError("not-found", `VLAN "${op.vid}" not found on "${op.dev}"`);
    return;
  }
  if (op.pvid) for (const entry of vlans.values()) entry.pvid = false;
  vlans.set(op.vid, { pvid: op.pvid ?? false, untagged: op.untagged ?? false });
}

/**
 * `link.move`: the link leaves with nothing (down, no addresses, routes or master) and gets
 * a new index in the target. Simplification: the kernel keeps the index when it is free
 * in the target; we always renumber, so code that caches an index across a move fails here.
 * Bridges and `lo` cannot move (NETIF_F_NETNS_LOCAL); VLAN links are refused too (their
 * cross-namespace parent is not modelled).
 */
export function moveLink(world: World, op: LinkMove): void {
  const ns = requireNs(world, op.ns);
  const link = requireLink(ns, op.name);
  const target = requireNs(world, op.to);
  if (target === ns) return;
  if (link.kind !== "veth" && link.kind !== "tun")
    throw new KernelError("invalid", `cannot move "${link.name}" of kind "${link.kind}" to another netns`);
  checkFree(target, link.name);
  removeChildren(world, ns, link);
  detach(ns, link);
  const moved: Link = { ...link, index: nextIndex(target), up: false, addrconfDone: false };
  delete moved.tc; // the kernel destroys a device's qdiscs when it changes namespace
  target.links.set(moved.index, moved);
  target.ifSysctls.set(moved.index, newIfSysctls(target));
  const peer = moved.peer && world.namespaces.get(moved.peer.ns)?.links.get(moved.peer.index);
  if (peer) peer.peer = { ns: target.path, index: moved.index };
}

/** `link.del`: deleting `lo` is refused; a veth takes its peer. */
export function deleteLink(world: World, op: LinkDel): void {
  const ns = requireNs(world, op.ns);
  const link = requireLink(ns, op.name);
  if (link.kind === "loopback")
    throw new KernelError("invalid", `cannot delete "${link.name}": operation not supported`);
  removeLink(world, ns, link);
}
