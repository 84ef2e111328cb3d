/**
 * Reading what a ptp ADD or CHECK needs from the Kernel port.
 */
import { HOST, type Kernel, type LinkInfo } from "@tscni/kernel";
import { canonicalCidr } from "../shared/ip.ts";
import { hasIpv6, ifKey, readHostSysctls } from "../shared/sysctl.ts";
import type { PtpCheckView } from "./check.ts";
import type { PtpView } from "./plan.ts";

/** The kernel before a ptp ADD in `netns` (which must exist), with the host's links for naming the veth. */
export async function readPtpView(kernel: Kernel, netns: string): Promise<PtpView & { hostLinks: LinkInfo[] }> {
  const [hostLinks, containerLinks, sysctls, hostRoutes] = await Promise.all([kernel.links(HOST), kernel.links(netns), readHostSysctls(kernel), kernel.routes(HOST)]);
  const loDisableIpv6 = hasIpv6(sysctls) ? await kernel.sysctl(netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
  const hostOnly = hostRoutes.filter((r) => r.dst.endsWith("/32") || r.dst.endsWith("/128")).map((r) => canonicalCidr(r.dst));
  return { hostLinks, containerLinks, sysctls, loDisableIpv6, hostRoutes: new Set(hostOnly) };
}

/** The kernel as a ptp CHECK compares it with the previous result. */
export async function readPtpCheckView(kernel: Kernel, netns: string): Promise<PtpCheckView> {
  const [hostLinks, containerLinks, containerAddrs, containerRoutes] = await Promise.all([
    kernel.links(HOST),
    kernel.links(netns),
    kernel.addresses(netns),
    kernel.routes(netns),
  ]);
  return { hostLinks, containerLinks, containerAddrs, containerRoutes };
}
