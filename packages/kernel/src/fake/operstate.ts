/**
 * Operational state as the kernel derives it (checked against Linux 6.18 in a throwaway
 * netns): a veth whose peer is down is LOWERLAYERDOWN; an up bridge without ports is
 * UNKNOWN. Simplification: a bridge with ports is UP when one port is UP, else DOWN (the
 * kernel's carrier follows ports in forwarding state; without STP that is the same).
 */
import type { Link, NsState, World } from "./state.ts";
import { childOperState } from "./fake-sublinks.ts";

/** The operstate string `ip link` would print for this link. */
export function operState(world: World, ns: NsState, link: Link): string {
  if (!link.up) return "DOWN";
  switch (link.kind) {
    case "loopback":
    case "ifb":
      return "UNKNOWN";
    case "veth": {
      const peer = link.peer && world.namespaces.get(link.peer.ns)?.links.get(link.peer.index);
      return peer?.up ? "UP" : "LOWERLAYERDOWN";
    }
    case "bridge": {
      const ports = [...ns.links.values()].filter((l) => l.master === link.index);
      if (ports.length === 0) return "UNKNOWN";
      return ports.some((p) => operState(world, ns, p) === "UP") ? "UP" : "DOWN";
    }
    case "vrf":
      return "UP";
    // No process has the tap open: NO-CARRIER, operstate DOWN (see fake-tap.ts).
    case "tun":
      return "DOWN";
    case "vlan": {
      const parent = link.parent === undefined ? undefined : ns.links.get(link.parent);
      if (link.lower !== undefined) return childOperState(world, link, (n, l) => isOperUp(world, n, l)) ?? "DOWN";
      return parent && isOperUp(world, ns, parent) ? "UP" : "LOWERLAYERDOWN";
    }
    default:
      return childOperState(world, link, (n, l) => isOperUp(world, n, l)) ?? "DOWN";
  }
}

/** True when the link can carry packets (operstate UP or UNKNOWN). */
export function isOperUp(world: World, ns: NsState, link: Link): boolean {
  const state = operState(world, ns, link);
  return state === "UP" || state === "UNKNOWN";
}
