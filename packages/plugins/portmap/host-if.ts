/**
 * The host interface that routes to the container (`getRoutableHostIF`): where portmap
 * sets route_localnet so 127/8 sources can cross into the container (§8.5 ADD 4). The
 * reference asks the kernel (RouteGet); we pick the most specific main-table route, which
 * for a container behind a bridge or ptp veth is its on-link route.
 */
import { type RouteInfo } from "@tscni/kernel";
import { type IP, contains, parsePrefix } from "@tscni/spec/ipnet";

/** The device of the most specific route covering `ip`, or undefined. */
export function routableHostIf(routes: readonly RouteInfo[], ip: IP): string | undefined {
  let best: { dev: string; prefix: number; metric: number } | undefined;
  for (const r of routes) {
    const dst = parsePrefix(r.dst);
    if (r.dev === undefined || dst === undefined || dst.ip.family !== ip.family || !contains(dst, ip)) continue;
    const metric = r.metric ?? 0;
    if (best === undefined || dst.prefix > best.prefix || (dst.prefix === best.prefix && metric < best.metric))
      best = { dev: r.dev, prefix: dst.prefix, metric };
  }
  return best?.dev;
}
