/**
 * ipvlan CHECK (CHK-3): the container interface of the previous result is an ipvlan in
 * the configured mode with the recorded MAC, with the result's IPs and routes. Pure over
 * a read of the kernel; the messages are the reference's.
 */
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "../shared/check.ts";
import { containerIface } from "../shared/sublink.ts";
import type { SublinkCheckView } from "../macvlan/check.ts";
import { ipvlanMode } from "./config.ts";

/** The first problem, or undefined when the attachment is as the result says. */
export function checkIpvlan(
  mode: string,
  ifName: string,
  netns: string,
  prev: Result100,
  view: SublinkCheckView,
): string | undefined {
  const cont = containerIface(prev, ifName, netns);
  if (cont.name === "") return `Container interface name missing in prevResult: ${cont.name}`;
  const link = view.link;
  if (link === undefined) return `Container Interface name in prevResult: ${cont.name} not found`;
  if (link.kind !== "ipvlan") return `Error: Container interface ${link.name} not of type ipvlan`;
  const want = ipvlanMode(mode);
  if (link.ipvlanMode !== want)
    return `Container IPVlan mode ${link.ipvlanMode ?? "unknown"} does not match expected value: ${want}`;
  if (cont.mac !== "" && cont.mac !== link.mac)
    return `Interface ${cont.name} Mac ${cont.mac} doesn't match container Mac: ${link.mac}`;
  return (
    checkInterfaceIps(ifName, prev.ips ?? [], view.addrs, view.routes) ?? checkRoutes(prev.routes ?? [], view.routes)
  );
}
