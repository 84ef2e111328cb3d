/**
 * Bridge CHECK (SPEC.md §8.1 CHECK, CHK-3): the bridge, the container veth, its host
 * peer on the bridge, the IPs and the routes of the previous result must all be there.
 * Pure over a read of the kernel; messages are the reference's.
 */
import type { Interface100, Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "../shared/check.ts";
import type { BridgeConfig } from "./config.ts";
import type { CheckView } from "../shared/check-view.ts";

/** What a bridge CHECK compares the previous result with. */
export type BridgeCheckView = CheckView;

/** The first problem CHECK finds, or undefined when the attachment is as the result says. */
export function checkBridge(
  conf: BridgeConfig,
  netns: string,
  ifName: string,
  prev: Result100,
  view: BridgeCheckView,
): string | undefined {
  const interfaces = prev.interfaces ?? [];
  const brMap: Interface100 = interfaces.find((i) => i.name === conf.bridge) ?? { name: "" };
  const contMap: Interface100 = interfaces.find((i) => i.name === ifName && i.sandbox === netns) ?? { name: "" };

  if (brMap.name === "") return "Interface name missing ";
  const br = view.hostLinks.find((l) => l.name === brMap.name);
  if (br === undefined) return `Interface name ${brMap.name} not found`;
  if ((brMap.sandbox ?? "") !== "") return `Interface ${brMap.name} should not be in sandbox`;
  if (br.kind !== "bridge") return `Interface ${brMap.name} does not have link type of bridge`;
  if (brMap.mac !== undefined && brMap.mac !== "" && brMap.mac !== br.mac)
    return `Bridge interface ${brMap.name} Mac doesn't match: ${brMap.mac}`;
  if (br.promisc !== conf.promiscMode) {
    return `Bridge interface ${brMap.name} configured Promisc Mode ${conf.promiscMode} doesn't match current state: ${br.promisc} `;
  }

  if ((contMap.sandbox ?? "") !== netns)
    return `Sandbox in prevResult ${contMap.sandbox ?? ""} doesn't match configured netns: ${netns}`;
  const cont = view.containerLinks.find((l) => l.name === contMap.name);
  if (cont === undefined) return `Interface name ${contMap.name} not found`;
  if (cont.kind !== "veth") return `Error: Container interface ${cont.name} not of type veth`;
  if (contMap.mac !== undefined && contMap.mac !== "" && contMap.mac !== cont.mac) {
    return `Interface ${contMap.name} Mac ${contMap.mac} doesn't match container Mac: ${cont.mac}`;
  }

  // The host peer: some other listed interface that is a veth peered with the container
  // end and enslaved to the bridge. Listed interfaces that are not veths are not ours.
  let vethFound = false;
  for (const intf of interfaces) {
    if (intf.name === brMap.name || intf.name === contMap.name) continue;
    if ((intf.sandbox ?? "") !== "") return `Interface ${intf.name} should not be in sandbox`;
    const link = view.hostLinks.find((l) => l.name === intf.name);
    if (link === undefined) return `Interface name ${intf.name} not found`;
    if (link.kind !== "veth") continue;
    if (link.index !== cont.peerIndex || cont.index !== link.peerIndex || link.master !== br.name) continue;
    if (intf.mac !== undefined && intf.mac !== "" && intf.mac !== link.mac)
      return `Interface ${intf.name} Mac doesn't match: ${intf.mac} not found`;
    vethFound = true;
    break;
  }
  if (!vethFound) return `CNI veth created for bridge ${conf.bridge} was not found`;

  return (
    checkInterfaceIps(ifName, prev.ips ?? [], view.containerAddrs, view.containerRoutes) ??
    checkRoutes(prev.routes ?? [], view.containerRoutes)
  );
}
