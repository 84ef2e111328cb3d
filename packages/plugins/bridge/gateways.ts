/**
 * The bridge's gateway logic (SPEC.md §8.1 ADD steps 6 and 8): gateways computed from
 * the IPAM result, the default route, and the gateway address on the bridge with the
 * reference's conflict rules (`ensureAddr`).
 */
import type { AddrInfo, Netns } from "@tscni/kernel";
import type { IPConfig100, Route } from "@tscni/spec";
import {
  type IPNet,
  contains,
  familyPrefix,
  formatAddr,
  formatPrefix,
  networkAddress,
  nextIP,
  parseAddr,
  parsePrefix,
} from "@tscni/spec/ipnet";
import { broadcastOf, canonicalCidr, defaultDst } from "../shared/ip.ts";
import { keep, type PlanStep } from "../shared/steps.ts";

/** The gateways to put on the bridge, per family, each with its IP's prefix. */
export interface Gateways {
  4: IPNet[];
  6: IPNet[];
}

/**
 * The reference's `calcGateways`: every IP points at the container interface (index 2);
 * an IP without a gateway gets the subnet's first address when `isGateway`; with
 * `isDefaultGateway` a default route through it is appended unless the IPAM routes
 * already hold a default route with a `gw`.
 */
export function calcGateways(
  ips: readonly IPConfig100[],
  routes: readonly Route[],
  opts: { isGateway: boolean; isDefaultGateway: boolean },
): { ips: IPConfig100[]; routes: Route[]; gateways: Gateways } {
  const outIps: IPConfig100[] = [];
  const outRoutes = [...routes];
  const gateways: Gateways = { 4: [], 6: [] };
  const defaultFound = { 4: false, 6: false };
  for (const ipc of ips) {
    const cidr = parsePrefix(ipc.address);
    if (cidr === undefined) throw new Error(`Unknown IP object: ${ipc.address}`);
    const family = cidr.ip.family;
    let gateway = ipc.gateway;
    if (gateway === undefined && opts.isGateway) {
      // The subnet's first address; past the family's last it wraps to its first.
      gateway = formatAddr(nextIP(networkAddress(cidr)) ?? { family, value: 0n });
    }
    outIps.push({ address: ipc.address, ...(gateway !== undefined ? { gateway } : {}), interface: 2 });
    if (opts.isDefaultGateway && !defaultFound[family]) {
      defaultFound[family] = outRoutes.some((r) => r.gw !== undefined && canonicalCidr(r.dst) === defaultDst(family));
      if (!defaultFound[family]) {
        outRoutes.push({ dst: defaultDst(family), ...(gateway !== undefined ? { gw: gateway } : {}) });
        defaultFound[family] = true;
      }
    }
    if (opts.isGateway && gateway !== undefined) {
      const gw = parseAddr(gateway);
      if (gw === undefined) throw new Error(`invalid gateway: ${gateway}`);
      gateways[family].push({ ip: gw, prefix: familyPrefix(cidr) });
    }
  }
  return { ips: outIps, routes: outRoutes, gateways };
}

/** Where a gateway address goes and what is already there. */
export interface GatewayDev {
  ns: Netns;
  name: string;
  /** The device's current addresses (updated as steps are planned). */
  addrs: AddrInfo[];
  /** The message prefix of a conflict (`failed to set bridge addr`). */
  context: string;
}

/**
 * The reference's `ensureAddr`: nothing when the address is there; an IPv4 address, or an
 * overlapping IPv6 one, that differs is replaced with `forceAddress` and an error otherwise.
 */
export function ensureAddrSteps(dev: GatewayDev, gw: IPNet, forceAddress: boolean): PlanStep[] {
  const want = formatPrefix(gw);
  const same = dev.addrs.filter((a) => a.family === gw.ip.family);
  if (same.some((a) => canonicalCidr(a.cidr) === want)) return [];
  const steps: PlanStep[] = [];
  for (const a of same) {
    const have = parsePrefix(a.cidr);
    if (have === undefined) continue;
    // Several IPv6 addresses may coexist when their subnets do not overlap.
    if (gw.ip.family === 4 || contains(have, gw.ip) || contains(gw, have.ip)) {
      if (!forceAddress)
        throw new Error(`${dev.context}: "${dev.name}" already has an IP address different from ${want}`);
      steps.push(keep({ op: "addr.del", ns: dev.ns, dev: dev.name, cidr: a.cidr }));
      dev.addrs = dev.addrs.filter((x) => x !== a);
    }
  }
  steps.push(keep({ op: "addr.add", ns: dev.ns, dev: dev.name, cidr: want, ...broadcastOf(gw) }));
  dev.addrs = [...dev.addrs, { dev: dev.name, cidr: want, family: gw.ip.family, scope: "global", ...broadcastOf(gw) }];
  return steps;
}
