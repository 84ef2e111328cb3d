/**
 * tap CHECK (CHK-3, upstream main's cmdCheck): the previous result names the interface in
 * this netns, and its IPs and routes are in the container. Like the reference, the tap
 * itself is not compared (its MAC or kind). Pure over a read of the kernel.
 */
import type { AddrInfo, RouteInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "../shared/check.ts";

/** The first problem CHECK finds, or undefined. */
export function checkTap(
  netns: string,
  ifName: string,
  prev: Result100,
  addrs: readonly AddrInfo[],
  routes: readonly RouteInfo[],
): string | undefined {
  const contMap = (prev.interfaces ?? []).find((i) => i.name === ifName && i.sandbox === netns);
  if ((contMap?.sandbox ?? "") !== netns)
    return `Sandbox in prevResult ${contMap?.sandbox ?? ""} doesn't match configured netns: ${netns}`;
  return checkInterfaceIps(ifName, prev.ips ?? [], addrs, routes) ?? checkRoutes(prev.routes ?? [], routes);
}
