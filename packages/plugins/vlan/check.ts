/**
 * vlan CHECK (CHK-3): the container interface of the previous result is a vlan with the
 * configured id, MTU (when set) and the recorded MAC, with the result's IPs and routes.
 * Pure over a read of the kernel; the messages are the reference's (its id message
 * speaks of "promisc", sic).
 */
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "../shared/check.ts";
import { containerIface } from "../shared/sublink.ts";
import type { SublinkCheckView } from "../shared/sublink-check.ts";

/** The first problem, or undefined when the attachment is as the result says. */
export function checkVlan(
  vlanId: number,
  mtu: number,
  ifName: string,
  netns: string,
  prev: Result100,
  view: SublinkCheckView,
): string | undefined {
  const cont = containerIface(prev, ifName, netns);
  if (cont.name === "") return `Container interface name missing in prevResult: ${cont.name}`;
  const link = view.link;
  if (link === undefined) return `vlan: Container Interface name in prevResult: ${cont.name} not found`;
  if (link.kind !== "vlan") return `Error: Container interface ${link.name} not of type vlan`;
  if (cont.mac !== "" && cont.mac !== link.mac)
    return `vlan: Interface ${cont.name} Mac ${cont.mac} doesn't match container Mac: ${link.mac}`;
  if (vlanId !== link.vlanId)
    return `Error: Tuning link ${cont.name} configured promisc is ${vlanId}, current value is ${link.vlanId ?? 0}`;
  if (mtu !== 0 && mtu !== link.mtu)
    return `Error: Tuning configured MTU of ${cont.name} is ${mtu}, current value is ${link.mtu}`;
  return (
    checkInterfaceIps(ifName, prev.ips ?? [], view.addrs, view.routes) ?? checkRoutes(prev.routes ?? [], view.routes)
  );
}
