/**
 * The L2 side of the reachability model: which interfaces a frame sent on a link can
 * reach. A veth reaches its peer when both ends are up; a frame entering a bridge port
 * reaches the bridge itself and every other operationally up port (except from one
 * isolated port to another). Bridge ports are not L3 endpoints; everything else is.
 * Simplifications: VLAN links and bridge VLAN filtering are not modelled (a VLAN link
 * has no neighbours), nor STP, FDB learning or MTU.
 */
import type { LinkInfo, Netns } from "../index.ts";
import type { NamespaceSnapshot } from "./snapshot.ts";

/** What the L2 walk needs to see of the machine. */
export interface NetView {
  snapshot(ns: Netns): NamespaceSnapshot | undefined;
  peerOf(ns: Netns, name: string): { ns: Netns; name: string } | undefined;
}

/** An interface of some namespace. */
export interface Endpoint {
  ns: Netns;
  link: LinkInfo;
}

function link(view: NetView, ns: Netns, name: string): LinkInfo | undefined {
  return view.snapshot(ns)?.links.find((l) => l.name === name);
}

/** Every L3 endpoint a frame sent on `dev` of `ns` reaches (the sender excluded). */
export function l2Neighbours(view: NetView, ns: Netns, dev: string): Endpoint[] {
  const out: Endpoint[] = [];
  const seen = new Set<string>([`${ns}\u0000${dev}`]);
  const first = (at: Netns, l: LinkInfo): boolean => {
    const key = `${at}\u0000${l.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  // A frame arrives on `l` over a wire: a plain interface takes it, a port hands it to its bridge.
  const arrive = (at: Netns, l: LinkInfo): void => {
    if (!first(at, l)) return;
    if (l.master === undefined) {
      out.push({ ns: at, link: l });
      return;
    }
    const bridge = link(view, at, l.master);
    if (bridge?.up) enterBridge(at, bridge, l);
  };
  // The bridge floods to itself and to every other up port (isolated ports don't talk to each other).
  const enterBridge = (at: Netns, bridge: LinkInfo, inPort: LinkInfo | undefined): void => {
    if (inPort && first(at, bridge)) out.push({ ns: at, link: bridge });
    for (const port of view.snapshot(at)?.links ?? []) {
      if (port.master !== bridge.name || port.name === inPort?.name || port.operState !== "UP") continue;
      if (inPort?.isolated && port.isolated) continue;
      sendOnWire(at, port);
    }
  };
  const sendOnWire = (at: Netns, l: LinkInfo): void => {
    if (l.kind !== "veth" || l.operState !== "UP") return;
    const peer = view.peerOf(at, l.name);
    const peerLink = peer && link(view, peer.ns, peer.name);
    if (peer && peerLink) arrive(peer.ns, peerLink);
  };
  const start = link(view, ns, dev);
  if (start?.kind === "bridge") enterBridge(ns, start, undefined);
  else if (start) sendOnWire(ns, start);
  return out;
}
