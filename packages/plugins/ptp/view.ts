/**
 * Reading what a ptp ADD needs from the Kernel port.
 */
import { HOST, type Kernel, type LinkInfo } from "@tscni/kernel";
import { canonicalCidr } from "../shared/ip.ts";
import { linksNamed } from "../shared/links.ts";
import { hasIpv6, ifKey, readHostSysctls } from "../shared/sysctl.ts";
import type { PtpView } from "./plan.ts";

/**
 * The families of the addresses in `ips` (`198.18.0.2/24` is 4, `2001:db8::2/64` is 6):
 * the only host routes a ptp ADD can find already there are of these families.
 */
export function familiesOf(ips: readonly { address: string }[]): (4 | 6)[] {
  return [...new Set(ips.map((ip): 4 | 6 => (ip.address.includes(":") ? 6 : 4)))];
}

/**
 * The kernel before a ptp ADD of `ifName` in `netns` (which must exist). The plan names
 * no host link: the random host veth name needs no dump of the host's links, since one
 * that clashes fails as "exists" and is picked anew (applyAttachment). Only the host
 * routes of `families` are read (default both): the plan looks for the container's own
 * `/32` or `/128` among them, and an IPv4-only ADD need not read (and name the devices
 * of) the host's IPv6 table, which holds a link-local route for every veth.
 */
export async function readPtpView(
  kernel: Kernel,
  netns: string,
  ifName: string,
  families: readonly (4 | 6)[] = [4, 6],
): Promise<PtpView & { hostLinks: LinkInfo[] }> {
  const routes =
    families.length === 1
      ? kernel.routes(HOST, families[0])
      : families.length === 0
        ? Promise.resolve([])
        : kernel.routes(HOST);
  const [containerLinks, sysctls, hostRoutes] = await Promise.all([
    linksNamed(kernel, netns, [ifName]),
    readHostSysctls(kernel),
    routes,
  ]);
  const hostLinks: LinkInfo[] = [];
  const loDisableIpv6 = hasIpv6(sysctls) ? await kernel.sysctl(netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
  const hostOnly = hostRoutes
    .filter((r) => r.dst.endsWith("/32") || r.dst.endsWith("/128"))
    .map((r) => canonicalCidr(r.dst));
  return { hostLinks, containerLinks, sysctls, loDisableIpv6, hostRoutes: new Set(hostOnly) };
}
