/**
 * What a ptp ADD does, as data (SPEC.md §8.2, BRIEF item 4). The container keeps its
 * subnet on the address but reaches everything through the gateway: the automatic subnet
 * route goes, a /32 (/128) link route to the gateway and the subnet via the gateway come
 * in, both with the container's address as source. The host end carries the gateway as
 * /32 (/128) and a host route to the container address. Pure.
 */
import { HOST, type LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { addressSteps, familyGateways, ipsFor, routeSteps, type IfaceTarget } from "../shared/configure-iface.ts";
import { formatAddr, formatPrefix } from "@tscni/spec/ipnet";
import { hostCidr, subnetText } from "../shared/ip.ts";
import { forwardingOps, hasIpv6, type HostSysctls } from "../shared/sysctl.ts";
import { keep, type PlanStep } from "../shared/steps.ts";
import { containerNameTaken, vethSteps } from "../shared/veth.ts";
import type { PtpConfig } from "./config.ts";

/** The kernel as the ADD found it. */
export interface PtpView {
  /** Links of the container namespace: at least the one named like the new interface, when it exists. */
  containerLinks: LinkInfo[];
  sysctls: HostSysctls;
  /** The container loopback's `disable_ipv6`. */
  loDisableIpv6?: string | undefined;
  /** Host routes (`/32`, `/128`) already present, as canonical CIDRs: adding one again is skipped (§8.2 step 6). */
  hostRoutes: ReadonlySet<string>;
}

/** Everything a ptp ADD plan depends on. */
export interface PtpAddInput {
  conf: PtpConfig;
  netns: string;
  ifName: string;
  /** The IPAM result in 1.x form. */
  ipam: Result100;
  view: PtpView;
  /** The host end's name (random, free in the host namespace). */
  hostVeth: string;
}

/** The plan: steps, and the result without the MACs only the kernel knows yet. */
export interface PtpAddPlan {
  steps: PlanStep[];
  result: Result100;
}

/** Plans a ptp ADD. Throws the reference's errors for what it can see in the view. */
export function planPtpAdd(input: PtpAddInput): PtpAddPlan {
  const { conf, netns, ifName, view, hostVeth } = input;
  const ipamIps = input.ipam.ips ?? [];
  if (ipamIps.length === 0) throw new Error("IPAM plugin returned missing IP config");
  if (view.containerLinks.some((l) => l.name === ifName)) throw containerNameTaken(ifName, hostVeth);
  const result: Result100 = {
    cniVersion: "1.1.0",
    interfaces: [{ name: hostVeth }, { name: ifName, sandbox: netns }],
    // Every address is on the container end (index 1).
    ips: ipamIps.map((ip) => ({ ...ip, interface: 1 })),
    ...(input.ipam.routes !== undefined && input.ipam.routes.length > 0 ? { routes: input.ipam.routes } : {}),
    ...(input.ipam.dns !== undefined ? { dns: input.ipam.dns } : {}),
  };
  if (conf.dns !== undefined) result.dns = conf.dns;
  const ipv6 = hasIpv6(view.sysctls);
  const ips = ipsFor(result, ifName);
  for (const ip of ips) {
    if (ip.gateway === undefined) throw new Error(`ptp needs a gateway for ${formatPrefix(ip.cidr)}`);
  }
  const families = new Set(ips.map((ip) => ip.cidr.ip.family));
  // A veth cannot DAD against anything but the host end, which holds only the gateway.
  const target: IfaceTarget = { netns, ifName, ipv6, loDisableIpv6: view.loDisableIpv6, nodad: true };
  const steps: PlanStep[] = [
    ...forwardingOps(view.sysctls, families).map(keep),
    ...vethSteps({ netns, ifName, hostName: hostVeth, mtu: conf.mtu, ipv6 }),
  ];
  steps.push(...addressSteps(target, ips));
  for (const ip of ips) {
    const src = formatAddr(ip.cidr.ip);
    const gw = formatAddr(ip.gateway!);
    const subnet = subnetText(ip.cidr);
    steps.push(
      keep({ op: "route.del", ns: netns, dst: subnet, dev: ifName }),
      keep({ op: "route.add", ns: netns, dst: hostCidr(ip.gateway!), dev: ifName, scope: "link", src }),
      keep({ op: "route.add", ns: netns, dst: subnet, gw, dev: ifName, src }),
    );
  }
  steps.push(...routeSteps(target, result.routes ?? [], familyGateways(ips)));
  const planned = new Set(view.hostRoutes);
  for (const ip of ips) {
    // A /32 (or /128): netlink's AddrAdd gives it no broadcast, so neither do we.
    steps.push(
      keep({
        op: "addr.add",
        ns: HOST,
        dev: hostVeth,
        cidr: hostCidr(ip.gateway!),
        ...(ip.cidr.ip.family === 6 ? { nodad: true } : {}),
      }),
    );
    const route = hostCidr(ip.cidr.ip);
    if (planned.has(route)) continue;
    planned.add(route);
    // Scope host, as the reference's route to the container (§8.2 step 6).
    steps.push(keep({ op: "route.add", ns: HOST, dst: route, dev: hostVeth, scope: "host" }));
  }
  return { steps, result };
}
