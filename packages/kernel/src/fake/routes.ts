/**
 * `route.add` / `route.del` on the main table (or `table`). Refusals follow the kernel:
 * a destination with host bits is `invalid`; a missing dev is `not-found`; a dev that is
 * down, or a gateway not covered by a gateway-less route of the namespace (on `dev` when
 * given) is `unreachable`, unless `onlink` (or an IPv6 link-local gateway with `dev`).
 * A route is keyed by (table, destination, metric): `route.add` refuses a second route
 * with the key as `exists`, `prepend` keeps it beside the first unless it is the same
 * route (H-2 ECMP). IPv4 keeps them as separate routes, the newest first; IPv6 merges gateway
 * routes into one multipath route, modelled here as one entry per nexthop, which is how
 * the Linux drivers read a multipath route too. Deleting an IPv6 route without `gw`
 * takes all the nexthops of its multipath route, as Linux does.
 * Not modelled: Linux keeps a dead IPv6 nexthop (its link down) while a sibling lives.
 */
import { KernelError, type RouteOp } from "../index.ts";
import { isLinkLocal } from "./connected.ts";
import { type IP, contains, ipEqual, isNetwork, parseAddr } from "@tscni/spec/ipnet";
import { requireCidr } from "./addresses.ts";
import { requireLink, requireNs, type NsState, type Route, type World } from "./state.ts";

function requireIp(text: string, family: 4 | 6): IP {
  const ip = parseAddr(text);
  if (!ip || ip.family !== family)
    throw new KernelError("invalid", `invalid address "${text}" for a family ${family} route`);
  return ip;
}

/** The gateway-less route through which `gw` is on-link (longest prefix, then lowest metric). */
export function onLinkRoute(ns: NsState, gw: IP, dev?: number, table?: number): Route | undefined {
  // A route for another table looks its gateway up there, then in main (fib_check_nh_v4_gw).
  const candidates = ns.routes.filter(
    (r) =>
      (r.table === undefined || (table !== undefined && r.table === table)) &&
      contains(r.dst, gw) &&
      (dev === undefined || r.dev === dev),
  );
  candidates.sort((a, b) => b.dst.prefix - a.dst.prefix || (a.metric ?? 0) - (b.metric ?? 0));
  const best = candidates[0];
  return best && best.gw === undefined ? best : undefined;
}

function sameKey(a: Route, b: Route): boolean {
  return (
    a.table === b.table &&
    a.dst.prefix === b.dst.prefix &&
    ipEqual(a.dst.ip, b.dst.ip) &&
    (a.metric ?? 0) === (b.metric ?? 0)
  );
}

const optIpEqual = (a: IP | undefined, b: IP | undefined): boolean =>
  a === undefined ? b === undefined : b !== undefined && ipEqual(a, b);

/**
 * An ECMP route the kernel refuses as a duplicate: IPv6 compares the nexthop (dev
 * and gateway, rt6_duplicate_nexthop); IPv4 the whole route (fib_info is shared).
 */
function duplicate(a: Route, b: Route): boolean {
  if (!sameKey(a, b) || a.dev !== b.dev || !optIpEqual(a.gw, b.gw)) return false;
  if (a.dst.ip.family === 6) return true;
  return (
    a.scope === b.scope && optIpEqual(a.src, b.src) && a.mtu === b.mtu && a.advmss === b.advmss && a.onlink === b.onlink
  );
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
    const via = onLinkRoute(ns, gw, dev, op.table === 254 ? undefined : op.table);
    if (!via) throw new KernelError("unreachable", `gateway "${op.gw}" is unreachable in netns "${ns.path}"`);
    dev = via.dev;
  }
  // Neither gateway nor device: the kernel finds no device (ENODEV).
  if (dev === undefined) throw new KernelError("not-found", `no such device for route "${op.dst}"`);
  const src = op.src === undefined ? undefined : requireIp(op.src, family);
  if (src && !ns.addrs.some((a) => ipEqual(a.cidr.ip, src)))
    throw new KernelError("invalid", `invalid source address "${op.src}"`);
  const route: Route = {
    dst,
    dev,
    // IPv6 routes have no scope: Linux lists every one as global, whatever was asked.
    scope: family === 6 ? "global" : (op.scope ?? (gw ? "global" : "link")),
    protocol: op.protocol ?? "boot",
    ...(gw && { gw }),
    ...(src && { src }),
    ...(op.table !== undefined && op.table !== 254 && { table: op.table }),
    ...(family === 6 ? { metric: op.metric ?? 1024 } : op.metric ? { metric: op.metric } : {}),
    ...(op.mtu !== undefined && { mtu: op.mtu }),
    ...(op.advmss !== undefined && { advmss: op.advmss }),
    ...(op.onlink && { onlink: true }),
  };
  // `replace` (NLM_F_REPLACE): the route with the same key makes way, or it is added.
  if (op.replace === true) {
    const old = ns.routes.findIndex((r) => sameKey(r, route));
    if (old >= 0) {
      ns.routes.splice(old, 1, route);
      return;
    }
  }
  const taken = op.prepend === true ? (r: Route) => duplicate(r, route) : (r: Route) => sameKey(r, route);
  if (ns.routes.some(taken)) throw new KernelError("exists", `route "${op.dst}" already exists in netns "${ns.path}"`);
  // IPv4 puts the new route before its key's first (fib_table_insert without NLM_F_APPEND).
  const first = family === 4 ? ns.routes.findIndex((r) => sameKey(r, route)) : -1;
  if (first >= 0) ns.routes.splice(first, 0, route);
  else ns.routes.push(route);
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
  // IPv6 without a gateway named: the whole multipath route goes (__ip6_del_rt_siblings).
  const siblings = dst.ip.family === 6 && gw === undefined && found.gw !== undefined;
  ns.routes = ns.routes.filter((r) => r !== found && !(siblings && r.gw !== undefined && sameKey(r, found)));
}

/** Applies one `route.add` or `route.del`. */
export function applyRoute(world: World, op: RouteOp): void {
  const ns = requireNs(world, op.ns);
  if (op.op === "route.add") addRoute(ns, op);
  else delRoute(ns, op);
}
