/**
 * dummy CHECK (CHK-3): the container interface of the previous result is a dummy, up,
 * with the recorded MAC and the result's IPs (the reference checks no routes). Pure over
 * a read of the kernel; the messages are the reference's.
 */
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps } from "../shared/check.ts";
import { containerIface } from "../shared/sublink.ts";
import type { SublinkCheckView } from "../shared/sublink-check.ts";

/** The first problem, or undefined when the attachment is as the result says. */
export function checkDummy(ifName: string, netns: string, prev: Result100, view: SublinkCheckView): string | undefined {
  const cont = containerIface(prev, ifName, netns);
  if (cont.sandbox !== netns) return `Sandbox in prevResult ${cont.sandbox} doesn't match configured netns: ${netns}`;
  if (cont.name === "") return `Container interface name missing in prevResult: ${cont.name}`;
  const link = view.link;
  if (link === undefined) return `Container Interface name in prevResult: ${cont.name} not found`;
  if (link.kind !== "dummy") return `Error: Container interface ${link.name} not of type dummy`;
  if (cont.mac !== "" && cont.mac !== link.mac)
    return `Interface ${cont.name} Mac ${cont.mac} doesn't match container Mac: ${link.mac}`;
  if (!link.up) return `Interface ${cont.name} is down`;
  return checkInterfaceIps(ifName, prev.ips ?? [], view.addrs, view.routes);
}
