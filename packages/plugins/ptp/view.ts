/**
 * Reading what a ptp ADD needs from the Kernel port.
 */
import { HOST, type Kernel, type LinkInfo } from "@tscni/kernel";
import { canonicalCidr } from "../shared/ip.ts";
import { linksNamed } from "../shared/links.ts";
import { hasIpv6, ifKey, readHostSysctls } from "../shared/sysctl.ts";
import type { PtpView } from "./plan.ts";

/**
 * The kernel before a ptp ADD of `ifName` in `netns` (which must exist). The plan names
 * no host link: the random host veth name needs no dump of the host's links, since one
 * that clashes fails as "exists" and is picked anew (applyAttachment).
 */
export async function readPtpView(kernel: Kernel, netns: string, ifName: string): Promise<PtpView & { hostLinks: LinkInfo[] }> {
  const [containerLinks, sysctls, hostRoutes] = await Promise.all([linksNamed(kernel, netns, [ifName]), readHostSysctls(kernel), kernel.routes(HOST)]);
  const hostLinks: LinkInfo[] = [];
  const loDisableIpv6 = hasIpv6(sysctls) ? await kernel.sysctl(netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
  const hostOnly = hostRoutes.filter((r) => r.dst.endsWith("/32") || r.dst.endsWith("/128")).map((r) => canonicalCidr(r.dst));
  return { hostLinks, containerLinks, sysctls, loDisableIpv6, hostRoutes: new Set(hostOnly) };
}
