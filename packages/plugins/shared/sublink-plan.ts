/**
 * What the interface plugins (macvlan, ipvlan, vlan, dummy) do to the kernel, as data
 * (issue 13). The child link is born in the container
 * under a temporary name (the reference's workaround for a name clash with the host,
 * whose namespace it is created from) and renamed to CNI_IFNAME there; then either the
 * result's IPs and routes are applied (ConfigureIface, H-2) with the reference's notify
 * sysctls, or, for L2, the link is only brought up. Pure.
 */
import type { KernelOp, Netns } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { addressSteps, familyGateways, ipsFor, routeSteps, type IfaceTarget } from "./configure-iface.ts";
import { keep, type PlanStep } from "./steps.ts";
import { ifKey, sysctlSet } from "./sysctl.ts";

/** Creating the child (its op names it `tmpName`, or CNI_IFNAME for dummy) and renaming it; each undone by deleting it. */
export function createSteps(create: KernelOp & { name: string }, netns: Netns, ifName: string): PlanStep[] {
  const steps: PlanStep[] = [{ op: create, undo: { op: "link.del", ns: netns, name: create.name } }];
  if (create.name !== ifName)
    steps.push({
      op: { op: "link.set", ns: netns, name: create.name, newName: ifName },
      undo: { op: "link.del", ns: netns, name: ifName },
    });
  return steps;
}

/** The result of an L3 ADD: the one container interface, every IP on it (index 0), the IPAM routes, the config's DNS. */
export function sublinkResult(
  iface: { name: string; mac?: string; sandbox: string },
  ipam: Result100,
  dns: Result100["dns"],
): Result100 {
  if ((ipam.ips ?? []).length === 0) throw new Error("IPAM plugin returned missing IP config");
  return {
    cniVersion: "1.1.0",
    interfaces: [iface],
    ips: (ipam.ips ?? []).map((ip) => ({ ...ip, interface: 0 })),
    ...(ipam.routes !== undefined && ipam.routes.length > 0 ? { routes: ipam.routes } : {}),
    // The reference sets `result.DNS = n.DNS`: the config's DNS replaces IPAM's, even when empty.
    ...(dns !== undefined ? { dns } : {}),
  };
}

/** How to configure the container interface. */
export interface ConfigureSpec {
  target: IfaceTarget;
  /** macvlan and ipvlan set `arp_notify` and `ndisc_notify` first (the reference ignores their failure). */
  notify: boolean;
}

/** Applies the result's addresses and routes to the interface (H-2). */
export function configureSteps(spec: ConfigureSpec, result: Result100): PlanStep[] {
  const { target } = spec;
  const steps: PlanStep[] = [];
  if (spec.notify) {
    steps.push(keep(sysctlSet(target.netns, ifKey("ipv4", target.ifName, "arp_notify"), "1")));
    if (target.ipv6) steps.push(keep(sysctlSet(target.netns, ifKey("ipv6", target.ifName, "ndisc_notify"), "1")));
  }
  const ips = ipsFor(result, target.ifName);
  steps.push(...addressSteps(target, ips));
  steps.push(...routeSteps(target, result.routes ?? [], familyGateways(ips)));
  return steps;
}

/** L2 only: the link comes up, nothing else. */
export function upSteps(netns: Netns, ifName: string): PlanStep[] {
  return [keep({ op: "link.set", ns: netns, name: ifName, up: true })];
}
