/**
 * Reading what a bridge ADD needs from the Kernel port: the few reads the plan
 * and the check are functions of.
 */
import { HOST, type Kernel } from "@tscni/kernel";
import { linksNamed } from "../shared/links.ts";
import { hasIpv6, ifKey, readHostSysctls } from "../shared/sysctl.ts";
import type { BridgeConfig } from "./config.ts";
import { vlanGatewayName, type BridgeView } from "./plan.ts";

/**
 * The kernel before a bridge ADD of `ifName` in `netns` (which must exist). The plan
 * looks links up by name only, so only the links it names are read (see BridgeView).
 */
export async function readBridgeView(
  kernel: Kernel,
  conf: BridgeConfig,
  netns: string,
  ifName: string,
): Promise<BridgeView> {
  const gatewayDev = conf.vlan !== 0 ? vlanGatewayName(conf) : conf.bridge;
  const [hostLinks, containerLinks, sysctls] = await Promise.all([
    linksNamed(kernel, HOST, [conf.bridge, gatewayDev]),
    linksNamed(kernel, netns, [ifName]),
    readHostSysctls(kernel),
  ]);
  const l3 = conf.ipamType !== "";
  const gatewayAddrs =
    l3 && conf.isGateway && hostLinks.some((l) => l.name === gatewayDev)
      ? await kernel.addresses(HOST, gatewayDev)
      : [];
  const loDisableIpv6 =
    l3 && hasIpv6(sysctls) ? await kernel.sysctl(netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
  return { hostLinks, containerLinks, gatewayAddrs, sysctls, loDisableIpv6 };
}
