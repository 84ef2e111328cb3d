/**
 * Applying a result's IPs and routes to the container interface, as the reference's
 * `ipam.ConfigureIface` does (H-2), computed as plan steps. Everything here happens on
 * the container end of a veth this ADD created, so no step needs an undo except the
 * loopback's `disable_ipv6`, which outlives the interface. (Deleting the interface takes
 * only its own nexthop of an ECMP route: another interface's sibling stays.)
 */
import type { Netns, RouteScope } from "@tscni/kernel";
import type { Result100, Route } from "@tscni/spec";
import { type IP, type IPNet, formatAddr, formatPrefix, parseAddr, parsePrefix } from "@tscni/spec/ipnet";
import { broadcastOf, subnetText } from "./ip.ts";
import { ifKey, sysctlSet } from "./sysctl.ts";
import { keep, type PlanStep } from "./steps.ts";

/** The container side of an attachment and what the plan knows about it. */
export interface IfaceTarget {
  netns: Netns;
  ifName: string;
  /** The kernel has IPv6 (its sysctls exist). */
  ipv6: boolean;
  /** The container loopback's `disable_ipv6` before this ADD (undefined: unknown or absent). */
  loDisableIpv6?: string | undefined;
  /** Add IPv6 addresses without duplicate address detection. */
  nodad?: boolean;
}

/** An IP of the result that belongs to `ifName`, parsed. */
export interface IfaceIp {
  cidr: IPNet;
  gateway?: IP | undefined;
}

/** The IPs of `result` for `ifName`: entries without an interface index are skipped (H-2). */
export function ipsFor(result: Result100, ifName: string): IfaceIp[] {
  if ((result.interfaces ?? []).length === 0) throw new Error("no interfaces to configure");
  const out: IfaceIp[] = [];
  for (const ipc of result.ips ?? []) {
    if (ipc.interface === undefined || ipc.interface === null) continue;
    const iface = result.interfaces?.[ipc.interface];
    if (ipc.interface < 0 || iface === undefined || iface.name !== ifName) {
      throw new Error(`failed to add IP addr ${ipc.address} to "${ifName}": invalid interface index`);
    }
    const cidr = parsePrefix(ipc.address);
    if (cidr === undefined) throw new Error(`invalid CIDR address: ${ipc.address}`);
    const gateway = ipc.gateway === undefined ? undefined : parseAddr(ipc.gateway);
    if (ipc.gateway !== undefined && gateway === undefined) throw new Error(`invalid IP address: ${ipc.gateway}`);
    out.push({ cidr, gateway });
  }
  return out;
}

/** The first gateway of each family among `ips` (R1-2: routes without `gw` use it). */
export function familyGateways(ips: readonly IfaceIp[]): { 4?: IP; 6?: IP } {
  const out: { 4?: IP; 6?: IP } = {};
  for (const ip of ips) {
    if (ip.gateway !== undefined && out[ip.gateway.family] === undefined) out[ip.gateway.family] = ip.gateway;
  }
  return out;
}

/** Brings the interface up, enables IPv6 where needed and adds the addresses (H-2). */
export function addressSteps(t: IfaceTarget, ips: readonly IfaceIp[]): PlanStep[] {
  const steps: PlanStep[] = [keep({ op: "link.set", ns: t.netns, name: t.ifName, up: true })];
  let ipv6Enabled = false;
  for (const ip of ips) {
    if (ip.cidr.ip.family === 6 && !ipv6Enabled && t.ipv6) {
      ipv6Enabled = true;
      if (t.loDisableIpv6 !== undefined && t.loDisableIpv6 !== "0") {
        steps.push({
          op: sysctlSet(t.netns, ifKey("ipv6", "lo", "disable_ipv6"), "0"),
          undo: sysctlSet(t.netns, ifKey("ipv6", "lo", "disable_ipv6"), t.loDisableIpv6),
        });
      }
      steps.push(keep(sysctlSet(t.netns, ifKey("ipv6", t.ifName, "disable_ipv6"), "0")));
      // v1.1.1 (Debian) differs: it leaves keep_addr_on_down alone; SPEC H-2 follows upstream main
      steps.push(keep(sysctlSet(t.netns, ifKey("ipv6", t.ifName, "keep_addr_on_down"), "1")));
    }
    const nodad = ip.cidr.ip.family === 6 && t.nodad === true ? { nodad: true } : {};
    steps.push(
      keep({
        op: "addr.add",
        ns: t.netns,
        dev: t.ifName,
        cidr: formatPrefix(ip.cidr),
        ...nodad,
        ...broadcastOf(ip.cidr),
      }),
    );
  }
  return steps;
}

const SCOPES: Readonly<Record<number, RouteScope>> = { 0: "global", 253: "link", 254: "host" };

/** Adds the result's routes through the interface; a route without `gw` uses its family's gateway (H-2). */
export function routeSteps(t: IfaceTarget, routes: readonly Route[], gateways: { 4?: IP; 6?: IP }): PlanStep[] {
  return routes.map((r) => {
    const dst = parsePrefix(r.dst);
    if (dst === undefined) throw new Error(`invalid route destination: ${r.dst}`);
    const gw =
      r.gw !== undefined
        ? r.gw
        : gateways[dst.ip.family] !== undefined
          ? formatAddr(gateways[dst.ip.family]!)
          : undefined;
    const scope = r.scope === undefined ? undefined : SCOPES[r.scope];
    const route = {
      ns: t.netns,
      // The kernel wants the destination without host bits (Go's ParseCIDR masks it too).
      dst: subnetText(dst),
      dev: t.ifName,
      ...(gw !== undefined ? { gw } : {}),
      ...(r.priority !== undefined && r.priority !== 0 ? { metric: r.priority } : {}),
      ...(r.table !== undefined ? { table: r.table } : {}),
    };
    // Added as ECMP, like the reference's RouteAddEcmp (H-2): a second interface's route to
    // the same destination (its default route) goes beside the first one: IPv4 keeps both,
    // the newest first; IPv6 makes one multipath route.
    return {
      op: {
        op: "route.add",
        ...route,
        ...(scope !== undefined ? { scope } : {}),
        ...(r.mtu !== undefined && r.mtu !== 0 ? { mtu: r.mtu } : {}),
        ...(r.advmss !== undefined && r.advmss !== 0 ? { advmss: r.advmss } : {}),
        prepend: true,
      },
      // [DIFF] the same route twice (a result listing it twice): the reference fails the
      // ADD with "file exists"; we pass over it.
      existsOk: true,
    };
  });
}
