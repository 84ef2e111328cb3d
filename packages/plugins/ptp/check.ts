/**
 * ptp CHECK (SPEC.md §8.2 CHECK, CHK-3): the container veth with its recorded MAC, its
 * host peer, the IPs and the routes of the previous result. Pure over a read of the
 * kernel; messages are the reference's (the host peer check is ours: the reference
 * does not look at the host end it lists).
 */
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "../shared/check.ts";
import type { CheckView } from "../shared/check-view.ts";

/** What a ptp CHECK compares the previous result with. */
export type PtpCheckView = CheckView;

/** The first problem CHECK finds, or undefined when the attachment is as the result says. */
export function checkPtp(netns: string, ifName: string, prev: Result100, view: PtpCheckView): string | undefined {
  const interfaces = prev.interfaces ?? [];
  const contMap = interfaces.find((i) => i.name === ifName && i.sandbox === netns) ?? { name: "", sandbox: "" };
  if ((contMap.sandbox ?? "") !== netns)
    return `Sandbox in prevResult ${contMap.sandbox ?? ""} doesn't match configured netns: ${netns}`;
  if (contMap.name === "") return `Container interface name missing in prevResult: ${contMap.name}`;
  const cont = view.containerLinks.find((l) => l.name === contMap.name);
  if (cont === undefined) return `ptp: Container Interface name in prevResult: ${contMap.name} not found`;
  if (cont.kind !== "veth") return `Error: Container interface ${cont.name} not of type veth/p2p`;
  if (contMap.mac !== undefined && contMap.mac !== "" && contMap.mac !== cont.mac) {
    return `ptp: Interface ${contMap.name} Mac ${contMap.mac} doesn't match container Mac: ${cont.mac}`;
  }
  for (const intf of interfaces) {
    if ((intf.sandbox ?? "") !== "") continue;
    const host = view.hostLinks.find((l) => l.name === intf.name);
    if (host === undefined || host.kind !== "veth" || host.index !== cont.peerIndex)
      return `ptp: host interface ${intf.name} is not the peer of ${ifName}`;
    if (intf.mac !== undefined && intf.mac !== "" && intf.mac !== host.mac)
      return `ptp: Interface ${intf.name} Mac ${intf.mac} doesn't match host Mac: ${host.mac}`;
  }
  return (
    checkInterfaceIps(ifName, prev.ips ?? [], view.containerAddrs, view.containerRoutes) ??
    checkRoutes(prev.routes ?? [], view.containerRoutes)
  );
}
