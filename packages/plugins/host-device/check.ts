/**
 * host-device CHECK (CHK-3, the reference's cmdCheck and validateCniContainerInterface):
 * the container interface of the previous result exists in the container with its MAC,
 * and the result's IPs and routes are there. Pure over a read of the kernel.
 */
import type { AddrInfo, LinkInfo, RouteInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "../shared/check.ts";

/** The container as CHECK reads it. */
export interface HostDeviceCheckView {
  containerLinks: LinkInfo[];
  containerAddrs: AddrInfo[];
  containerRoutes: RouteInfo[];
}

/** The first problem CHECK finds, or undefined when the container is as the result says. */
export function checkHostDevice(
  netns: string,
  ifName: string,
  prev: Result100,
  view: HostDeviceCheckView,
): string | undefined {
  const contMap = (prev.interfaces ?? []).find((i) => i.name === ifName && i.sandbox === netns) ?? {
    name: "",
    sandbox: "",
  };
  if ((contMap.sandbox ?? "") !== netns)
    return `Sandbox in prevResult ${contMap.sandbox ?? ""} doesn't match configured netns: ${netns}`;
  if (contMap.name === "") return `Container interface name missing in prevResult: ${contMap.name}`;
  const link = view.containerLinks.find((l) => l.name === contMap.name);
  if (link === undefined) return `Container Interface name in prevResult: ${contMap.name} not found`;
  if (contMap.mac !== undefined && contMap.mac !== "" && contMap.mac !== link.mac) {
    return `Interface ${contMap.name} Mac ${contMap.mac} doesn't match container Mac: ${link.mac}`;
  }
  return (
    checkInterfaceIps(ifName, prev.ips ?? [], view.containerAddrs, view.containerRoutes) ??
    checkRoutes(prev.routes ?? [], view.containerRoutes)
  );
}
