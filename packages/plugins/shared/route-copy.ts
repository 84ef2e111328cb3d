/**
 * A route read from the kernel turned back into the op that re-creates it elsewhere (sbr
 * moves an interface's routes into a table of their own, vrf into its VRF's table, with
 * the reference's RouteReplace of the route as listed), and into the op that deletes it.
 * Pure.
 */
import type { RouteInfo, RouteOp } from "@tscni/kernel";

/** A read route as the op that puts it back (into `table`, or main), with every attribute the kernel reported. */
export function routeAgain(ns: string, r: RouteInfo, table: number | undefined, replace: boolean): RouteOp {
  const proto = r.protocol === "kernel" || r.protocol === "static" ? r.protocol : undefined;
  const scope = r.scope === "global" || r.scope === "link" || r.scope === "host" ? r.scope : undefined;
  return {
    op: "route.add",
    ns,
    dst: r.dst,
    ...(r.gw !== undefined && { gw: r.gw }),
    ...(r.dev !== undefined && { dev: r.dev }),
    ...(r.src !== undefined && { src: r.src }),
    ...(scope !== undefined && { scope }),
    ...(table !== undefined && { table }),
    ...(r.metric !== undefined && { metric: r.metric }),
    ...(r.mtu !== undefined && { mtu: r.mtu }),
    ...(r.advmss !== undefined && { advmss: r.advmss }),
    ...(proto !== undefined && { protocol: proto }),
    ...(replace && { replace: true }),
  };
}

/** The deletion of a read route from `table` (main when undefined). */
export function routeGone(ns: string, r: RouteInfo, table?: number): RouteOp {
  return {
    op: "route.del",
    ns,
    dst: r.dst,
    ...(r.gw !== undefined && { gw: r.gw }),
    ...(r.dev !== undefined && { dev: r.dev }),
    ...(table !== undefined && { table }),
    ...(r.metric !== undefined && { metric: r.metric }),
  };
}
