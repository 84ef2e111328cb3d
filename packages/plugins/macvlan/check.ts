/**
 * macvlan CHECK (CHK-3): the container interface of the previous result is a macvlan in
 * the configured mode with the recorded MAC, and the result's IPs and routes are there.
 * Pure over a read of the kernel; the messages are the reference's, lower case as its.
 */
import type { AddrInfo, LinkInfo, RouteInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "../shared/check.ts";
import { containerIface } from "../shared/sublink.ts";
import { macvlanMode } from "./config.ts";

/** What a macvlan CHECK compares the previous result with. */
export interface SublinkCheckView {
  link: LinkInfo | undefined;
  addrs: AddrInfo[];
  routes: RouteInfo[];
}

/** The sandbox problem the reference reports before it looks at the master, or undefined. */
export function macvlanSandboxProblem(prev: Result100, ifName: string, netns: string): string | undefined {
  const cont = containerIface(prev, ifName, netns);
  return cont.sandbox !== netns
    ? `sandbox in prevResult ${cont.sandbox} doesn't match configured netns: ${netns}`
    : undefined;
}

/** The first problem, or undefined when the attachment is as the result says. */
export function checkMacvlan(
  mode: string,
  ifName: string,
  netns: string,
  prev: Result100,
  view: SublinkCheckView,
): string | undefined {
  const cont = containerIface(prev, ifName, netns);
  if (cont.name === "") return `container interface name missing in prevResult: ${cont.name}`;
  const link = view.link;
  if (link === undefined) return `container Interface name in prevResult: ${cont.name} not found`;
  if (link.kind !== "macvlan") return `error: Container interface ${link.name} not of type macvlan`;
  const want = macvlanMode(mode);
  if (link.macvlanMode !== want)
    return `container macvlan mode ${link.macvlanMode ?? "unknown"} does not match expected value: ${want}`;
  if (cont.mac !== "" && cont.mac !== link.mac)
    return `interface ${cont.name} Mac ${cont.mac} doesn't match container Mac: ${link.mac}`;
  return (
    checkInterfaceIps(ifName, prev.ips ?? [], view.addrs, view.routes) ?? checkRoutes(prev.routes ?? [], view.routes)
  );
}
