/**
 * VRF devices in the fake kernel (`vrf.add`, issue 12 item 3). This machine's kernel has
 * no vrf link kind, so the model follows drivers/net/vrf.c: a VRF is an up-able device
 * bound to one table (MTU 65575, operstate UP once up); enslaving a link cycles it
 * (cycle_netdev: down then up), which flushes its routes and IPv6 addresses
 * (keep_addr_on_down=0) and brings its prefix routes back in the VRF's table; releasing
 * it (nomaster, or the VRF's deletion) cycles it again, back into main.
 */
import { KernelError, type VrfAdd } from "../index.ts";
import { onLinkDown, onLinkUp } from "./connected.ts";
import { checkFree, checkName, insertLink } from "./link-create.ts";
import { nextMac, requireNs, type Link, type NsState, type World } from "./state.ts";

/** `vrf.add`: a down VRF device bound to `table`. */
export function addVrf(world: World, op: VrfAdd): void {
  const ns = requireNs(world, op.ns);
  checkName(op.name);
  checkFree(ns, op.name);
  if (!Number.isInteger(op.table) || op.table < 1 || op.table > 0xffffffff)
    throw new KernelError("invalid", `invalid VRF table "${op.table}"`);
  insertLink(ns, {
    kind: "vrf",
    name: op.name,
    mtu: 65575,
    mac: nextMac(world),
    up: false,
    promisc: false,
    vrfTable: op.table,
  });
}

/** The table a link's routes live in: its VRF's, or undefined (main). */
export function tableOfLink(ns: NsState, link: Link): number | undefined {
  if (link.kind === "vrf") return link.vrfTable;
  const master = link.master === undefined ? undefined : ns.links.get(link.master);
  return master?.kind === "vrf" ? master.vrfTable : undefined;
}

/** cycle_netdev: an up link goes down and up again, its routes rebuilt where they now belong. */
export function cycleLink(ns: NsState, link: Link): void {
  if (!link.up) return;
  onLinkDown(ns, link);
  onLinkUp(ns, link);
}

/** Enslaves `link` to the VRF `vrf` (`link.set master`). */
export function enslaveToVrf(ns: NsState, link: Link, vrf: Link, release: (ns: NsState, link: Link) => void): void {
  if (link === vrf || link.kind === "vrf" || link.kind === "loopback")
    throw new KernelError("invalid", `cannot enslave "${link.name}" to "${vrf.name}"`);
  if (link.master === vrf.index) return;
  if (link.master !== undefined) release(ns, link);
  link.master = vrf.index;
  cycleLink(ns, link);
}
