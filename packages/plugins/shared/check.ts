/**
 * CHECK's comparisons of a result with the kernel (CHK-3), with the reference's messages
 * (`ip.ValidateExpectedInterfaceIPs`, `ip.ValidateExpectedRoute`). Pure: the caller reads
 * the kernel.
 */
import type { AddrInfo, RouteInfo } from "@tscni/kernel";
import type { IPConfig100, Route } from "@tscni/spec";
import { formatAddr, parsePrefix } from "@tscni/spec/ipnet";
import { canonicalCidr, canonicalIp, defaultDst, subnetText } from "./ip.ts";

/** Every result IP is on `ifName` and a route to its subnet exists; the first problem, or undefined. */
export function checkInterfaceIps(
  ifName: string,
  ips: readonly IPConfig100[],
  addrs: readonly AddrInfo[],
  routes: readonly RouteInfo[],
): string | undefined {
  for (const ipc of ips) {
    const cidr = parsePrefix(ipc.address);
    if (cidr === undefined) return `invalid address ${ipc.address} in prevResult`;
    const want = canonicalCidr(ipc.address);
    if (!addrs.some((a) => a.dev === ifName && canonicalCidr(a.cidr) === want))
      return `Failed to match addr ${want} on interface ${ifName}`;
    const subnet = subnetText(cidr);
    if (!routes.some((r) => canonicalCidr(r.dst) === subnet))
      return `Failed to find Gateway ${ipc.gateway ?? "<nil>"} for interface ${ifName}`;
  }
  return undefined;
}

/** Every result route is in the routing table (a default route only by destination); the first problem, or undefined. */
export function checkRoutes(expected: readonly Route[], routes: readonly RouteInfo[]): string | undefined {
  for (const route of expected) {
    const dst = parsePrefix(route.dst);
    if (dst === undefined) return `Invalid static route found ${route.dst}`;
    const want = canonicalCidr(route.dst);
    const isDefault = want === defaultDst(dst.ip.family);
    const found = routes.some(
      (r) =>
        canonicalCidr(r.dst) === want &&
        (isDefault || route.gw === undefined || (r.gw !== undefined && canonicalIp(r.gw) === canonicalIp(route.gw))),
    );
    if (!found) return `Expected Route ${goRoute(route)} not found in routing table`;
  }
  return undefined;
}

/** A route as Go's `%+v` prints `types.Route`: `{Dst:{IP:198.18.0.0 Mask:ffff0000} GW:<nil>}`. */
function goRoute(route: Route): string {
  const dst = parsePrefix(route.dst);
  if (dst === undefined) return `{Dst:${route.dst} GW:${route.gw ?? "<nil>"}}`;
  const bits = dst.bits ?? (dst.ip.family === 4 ? 32 : 128);
  const mask = ((1n << BigInt(bits)) - (1n << BigInt(bits - dst.prefix))).toString(16).padStart(bits / 4, "0");
  const gw = route.gw === undefined || route.gw === "" ? "<nil>" : canonicalIp(route.gw);
  return `{Dst:{IP:${formatAddr(dst.ip)} Mask:${mask}} GW:${gw}}`;
}
