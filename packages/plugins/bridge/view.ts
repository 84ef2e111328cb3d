/**
 * Reading what a bridge ADD or CHECK needs from the Kernel port: the few reads the plan
 * and the check are functions of.
 */
import { HOST, type Kernel } from "@tscni/kernel";
import { hasIpv6, ifKey, readHostSysctls } from "../shared/sysctl.ts";
import type { BridgeCheckView } from "./check.ts";
import type { BridgeConfig } from "./config.ts";
import { vlanGatewayName, type BridgeView } from "./plan.ts";

/** The kernel before a bridge ADD in `netns` (which must exist). */
export async function readBridgeView(kernel: Kernel, conf: BridgeConfig, netns: string): Promise<BridgeView> {
  const [hostLinks, containerLinks, sysctls] = await Promise.all([kernel.links(HOST), kernel.links(netns), readHostSysctls(kernel)]);
  const gatewayDev = conf.vlan !== 0 ? vlanGatewayName(conf) : conf.bridge;
  const l3 = conf.ipamType !== "";
  const gatewayAddrs = l3 && conf.isGateway && hostLinks.some((l) => l.name === gatewayDev) ? await kernel.addresses(HOST, gatewayDev) : [];
  const loDisableIpv6 = l3 && hasIpv6(sysctls) ? await kernel.sysctl(netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
  return { hostLinks, containerLinks, gatewayAddrs, sysctls, loDisableIpv6 };
}

/** The kernel as a bridge CHECK compares it with the previous result. */
export async function readBridgeCheckView(kernel: Kernel, netns: string): Promise<BridgeCheckView> {
  const [hostLinks, containerLinks, containerAddrs, containerRoutes] = await Promise.all([
    kernel.links(HOST),
    kernel.links(netns),
    kernel.addresses(netns),
    kernel.routes(netns),
  ]);
  return { hostLinks, containerLinks, containerAddrs, containerRoutes };
}
