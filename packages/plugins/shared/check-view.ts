/**
 * What a bridge or ptp CHECK reads from the kernel before comparing it with the previous
 * result (CHK-3): the links it names, and the container's addresses and routes.
 */
import { HOST, type AddrInfo, type Kernel, type LinkInfo, type RouteInfo } from "@tscni/kernel";
import { linksNamed } from "./links.ts";

/** The kernel as a CHECK sees it. */
export interface CheckView {
  hostLinks: LinkInfo[];
  containerLinks: LinkInfo[];
  containerAddrs: AddrInfo[];
  containerRoutes: RouteInfo[];
}

/**
 * Reads the links CHECK looks up by name (`hostNames` on the host, `ifName` in the
 * container) and the container's addresses and routes, concurrently.
 */
export async function readCheckView(
  kernel: Kernel,
  netns: string,
  ifName: string,
  hostNames: readonly string[],
): Promise<CheckView> {
  const [hostLinks, containerLinks, containerAddrs, containerRoutes] = await Promise.all([
    linksNamed(kernel, HOST, hostNames),
    linksNamed(kernel, netns, [ifName]),
    kernel.addresses(netns),
    kernel.routes(netns),
  ]);
  return { hostLinks, containerLinks, containerAddrs, containerRoutes };
}
