/**
 * `route.add` / `route.del` on the main table (or `table`). Refusals follow the kernel:
 * a destination with host bits is `invalid`; a missing dev is `not-found`; a dev that is
 * down, or a gateway not covered by a gateway-less route of the namespace (on `dev` when
 * given) is `unreachable`, unless `onlink` (or an IPv6 link-local gateway with `dev`).
 * Simplification: a route is identified by (table, destination, metric), so a second
 * gateway for the same destination is `exists` rather than an IPv6 multipath route.
 */
import { KernelError, type RouteOp } from "@tscni/kernel";
import { isLinkLocal } from "./connected.ts";
import { type IP, contains, ipEqual, isNetwork, parseAddr } from "@tscni/spec/ipnet";
import { requireCidr } from "./addresses.ts";
import { requireLink, requireNs, type NsState, type Route, type World } from "./state.ts";

function requireIp(text: string, family: 4 | 6): IP {
  const ip = parseAddr(text);
  if (!ip || ip.family !== family) throw new KernelError("invalid", `invalid address "${text}" for a family ${family} route`);
  return ip;
}

/** The gateway-less route through which `gw` is on-link (longest prefix, then lowest metric). */
export function onLinkRoute(ns: NsState, gw: IP, dev?: number): Route | undefined {
  const candidates = ns.routes.filter((r) => r.table === undefined && contains(r.dst, gw) && (dev === undefined || r.dev === dev));
  candidates.sort((a, b) => b.dst.prefix - a.dst.prefix || (a.metric ?? 0) - (b.metric ?? 0));
  const best = candidates[0];
  return best && best.gw === undefined ? best : undefined;
}

function sameKey(a: Route, b: Route): boolean {
  return a.table === b.table && a.dst.prefix === b.dst.prefix && ipEqual(a.dst.ip, b.dst.ip) && (a.metric ?? 0) === (b.metric ?? 0);
}

function addRoute(ns: NsState, op: RouteOp): void {
  const dst = requireCidr(op.dst);
  if (!isNetwork(dst)) throw new KernelError("invalid", `invalid prefix "${op.dst}" for its prefix length`);
  const family = dst.ip.family;
  const gw = op.gw === undefined ? undefined : requireIp(op.gw, family);
  const devLink = op.dev === undefined ? undefined : requireLink(ns, op.dev);
  if (devLink && !devLink.up) throw new KernelError("unreachable", `nexthop device "${devLink.name}" is not up`);
  let dev = devLink?.index;
  if (gw && !(devLink && (op.onlink || isLinkLocal(gw)))) {
    const via = onLinkRoute(ns, gw, dev);
    if (!via) throw new KernelError("unreachable", `gateway "${op.gw}" is unreachable in netns "${ns.path}"`);
    dev = via.dev;
  }
  // Neither gateway nor device: the kernel finds no device (ENODEV).
  if (dev === undefined) throw new KernelError("not-found", `no such device for route "${op.dst}"`);
  const src = op.src === undefined ? undefined : requireIp(op.src, family);
  if (src && !ns.addrs.some((a) => ipEqual(a.cidr.ip, src))) throw new KernelError("invalid", `invalid source address "${op.src}"`);
  const route: Route = {
    dst,
    dev,
    scope: op.scope ?? (family === 4 && !gw ? "link" : "global"),
    protocol: "boot",
    ...(gw && { gw }),
    ...(src && { src }),
    ...(op.table !== undefined && op.table !== 254 && { table: op.table }),
    ...(family === 6 ? { metric: op.metric ?? 1024 } : op.metric ? { metric: op.metric } : {}),
    ...(op.mtu !== undefined && { mtu: op.mtu }),
    ...(op.advmss !== undefined && { advmss: op.advmss }),
    ...(op.onlink && { onlink: true }),
  };
  if (ns.routes.some((r) => sameKey(r, route))) throw new KernelError("exists", `route "${op.dst}" already exists in netns "${ns.path}"`);
  ns.routes.push(route);
}

function delRoute(ns: NsState, op: RouteOp): void {
  const dst = requireCidr(op.dst);
  const table = op.table === 254 ? undefined : op.table;
  const gw = op.gw === undefined ? undefined : requireIp(op.gw, dst.ip.family);
  const dev = op.dev === undefined ? undefined : requireLink(ns, op.dev).index;
  const found = ns.routes.find(
    (r) =>
      r.table === table &&
      r.dst.prefix === dst.prefix &&
      ipEqual(r.dst.ip, dst.ip) &&
      (gw === undefined || (r.gw !== undefined && ipEqual(r.gw, gw))) &&
      (dev === undefined || r.dev === dev) &&
      (op.metric === undefined || (r.metric ?? 0) === op.metric),
  );
  if (!found) throw new KernelError("not-found", `route "${op.dst}" not found in netns "${ns.path}"`);
  ns.routes.splice(ns.routes.indexOf(found), 1);
}

/** Applies one `route.add` or `route.del`. */
export function applyRoute(world: World, op: RouteOp): void {
  const ns = requireNs(world, op.ns);
  if (op.op === "route.add") addRoute(ns, op);
  else delRoute(ns, op);
}
