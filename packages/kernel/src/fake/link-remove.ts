/**
 * Taking links down and away, with the cascades the kernel performs: a veth takes its peer
 * with it (wherever the peer lives), a bridge releases its ports, a parent takes its VLAN
 * links, and every address, route and per-interface sysctl of a link goes with it.
 */
import { onLinkDown, onLinkGone } from "./connected.ts";
import type { Link, NsState, World } from "./state.ts";
import { cycleLink } from "./fake-vrf.ts";
import { childrenOf } from "./fake-sublinks.ts";

/**
 * Linux's br_mtu_auto_adjust: unless its MTU was set by the user, a bridge takes the
 * smallest MTU of its ports (1500 with none), whenever a port joins, leaves or changes MTU.
 */
export function adjustBridgeMtu(ns: NsState, bridgeIndex: number): void {
  const bridge = ns.links.get(bridgeIndex);
  if (bridge === undefined || bridge.kind !== "bridge" || bridge.mtuSetByUser === true) return;
  const ports = [...ns.links.values()].filter((l) => l.master === bridgeIndex);
  bridge.mtu = ports.length === 0 ? 1500 : Math.min(...ports.map((p) => p.mtu));
}

/** Releases a port from its bridge (nomaster): port flags and VLANs go, the bridge's MTU follows. */
export function release(ns: NsState, link: Link): void {
  const master = link.master;
  const fromVrf = master !== undefined && ns.links.get(master)?.kind === "vrf";
  delete link.master;
  delete link.hairpin;
  delete link.isolated;
  delete link.vlans;
  if (master !== undefined) adjustBridgeMtu(ns, master);
  // Leaving a VRF cycles the link: its routes come back in main.
  if (fromVrf) cycleLink(ns, link);
}

/** Sets a link down with the kernel's side effects; its VLAN links follow it down. */
export function setDown(ns: NsState, link: Link): void {
  if (!link.up) return;
  link.up = false;
  onLinkDown(ns, link);
  for (const child of ns.links.values()) if (child.kind === "vlan" && child.parent === link.index) setDown(ns, child);
}

/** Detaches a link from everything in its namespace that refers to it, without touching its peer. */
export function detach(ns: NsState, link: Link): void {
  setDown(ns, link);
  onLinkGone(ns, link);
  if (link.master !== undefined) release(ns, link);
  for (const other of [...ns.links.values()]) {
    if (other.master === link.index) release(ns, other);
    if (other.kind === "vlan" && other.parent === link.index) removeLinkOnly(ns, other);
  }
  ns.links.delete(link.index);
}

function removeLinkOnly(ns: NsState, link: Link): void {
  if (ns.links.has(link.index)) detach(ns, link);
}

/** Deletes a link and, for a veth, its peer in whatever namespace it lives. */
export function removeLink(world: World, ns: NsState, link: Link): void {
  removeLinkOnly(ns, link);
  removeChildren(world, ns, link);
  if (link.peer) {
    const peerNs = world.namespaces.get(link.peer.ns);
    const peer = peerNs?.links.get(link.peer.index);
    if (peerNs && peer) removeLinkOnly(peerNs, peer);
    if (peerNs && peer) removeChildren(world, peerNs, peer);
  }
}

/** A lower device going takes its macvlan, ipvlan and cross-namespace vlan children, wherever they live (fake-sublinks.ts). */
export function removeChildren(world: World, ns: NsState, link: Link): void {
  for (const child of childrenOf(world, ns.path, link.index))
    if (child.ns.links.has(child.link.index)) removeLink(world, child.ns, child.link);
}
