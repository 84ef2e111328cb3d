/**
 * The kernel's automatic side effects on addresses and routes, in one place:
 * prefix routes (proto kernel) follow addresses on up links, link-up adds the loopback
 * addresses, link-down flushes routes and IPv6 addresses, and IPv6 link-local addresses
 * appear once a link is operationally up.
 *
 * Facts checked on Linux 6.18: an IPv4 /32 gets no prefix route, an IPv6 /128 does
 * (metric 256); IPv4 prefix routes of `lo` and the route of `::1` live in the local table,
 * not in main (other IPv6 addresses on `lo` do get one); taking a
 * link down flushes every route through it and its IPv6 addresses (keep_addr_on_down=0)
 * while IPv4 addresses stay; routes added by hand do not come back on link-up.
 */
import { type IP, type IPNet, contains, ipEqual, network } from "@tscni/spec/ipnet";
import { linkLocalFromMac, parseCidr } from "./ip.ts";
import { isOperUp } from "./operstate.ts";
import type { Addr, Link, NsState, Route, World } from "./state.ts";
import { ifSysctl } from "./sysctl-store.ts";
import { tableOfLink } from "./fake-vrf.ts";

const LINK_LOCAL_NET: IPNet = { ip: { family: 6, value: 0xfe80n << 112n }, prefix: 64 };

function sameNet(a: IPNet, b: IPNet): boolean {
  return a.prefix === b.prefix && ipEqual(network(a).ip, network(b).ip);
}

/** True when `route` is the prefix route an address on `link` would own. */
function isPrefixRouteOf(route: Route, addr: Addr): boolean {
  return route.protocol === "kernel" && route.dev === addr.link && sameNet(route.dst, network(addr.cidr));
}

/** Adds the prefix route of `addr` when its link is up and it needs one. */
export function addPrefixRoute(ns: NsState, link: Link, addr: Addr): void {
  if (!link.up || addr.noprefixroute) return;
  const fam = addr.cidr.ip.family;
  if (fam === 4 && (addr.cidr.prefix === 32 || link.kind === "loopback")) return;
  if (ns.routes.some((r) => isPrefixRouteOf(r, addr))) return;
  const dst = network(addr.cidr);
  // A VRF's slave has its connected routes in the VRF's table (fake-vrf.ts).
  const table = tableOfLink(ns, link);
  ns.routes.push({
    ...(fam === 4
      ? { dst, dev: link.index, src: addr.cidr.ip, scope: "link" as const, protocol: "kernel" as const }
      : { dst, dev: link.index, scope: "global" as const, metric: 256, protocol: "kernel" as const }),
    ...(table !== undefined && { table }),
  });
}

/** Removes what an address took with it: its prefix route unless another address keeps it. */
export function removeAddrEffects(ns: NsState, addr: Addr): void {
  const heirs = ns.addrs.filter(
    (a) => a !== addr && a.link === addr.link && !a.noprefixroute && sameNet(a.cidr, addr.cidr),
  );
  for (const route of ns.routes.filter((r) => isPrefixRouteOf(r, addr))) {
    const heir = heirs[0];
    if (!heir) ns.routes.splice(ns.routes.indexOf(route), 1);
    // The next address of the subnet is promoted and becomes the route's source.
    else if (route.src && ipEqual(route.src, addr.cidr.ip)) route.src = heir.cidr.ip;
  }
  // Deleting the last IPv4 address of a link disables IPv4 on it (fib_disable_ip).
  if (
    addr.cidr.ip.family === 4 &&
    !ns.addrs.some((a) => a !== addr && a.link === addr.link && a.cidr.ip.family === 4)
  ) {
    ns.routes = ns.routes.filter((r) => !(r.dev === addr.link && r.dst.ip.family === 4));
  }
}

/** A link went administratively up: loopback addresses and prefix routes appear. */
export function onLinkUp(ns: NsState, link: Link): void {
  if (link.kind === "loopback") {
    for (const text of ["127.0.0.1/8", "::1/128"]) {
      const cidr = parseCidr(text) as IPNet;
      if (cidr.ip.family === 6 && ifSysctl(ns, link.index, "ipv6", "disable_ipv6") === "1") continue;
      if (!ns.addrs.some((a) => a.link === link.index && ipEqual(a.cidr.ip, cidr.ip))) {
        // `::1` gets no main-table route (its route lives in the local table).
        ns.addrs.push({ link: link.index, cidr, scope: "host", noprefixroute: true });
      }
    }
  }
  for (const addr of ns.addrs.filter((a) => a.link === link.index)) addPrefixRoute(ns, link, addr);
}

/** A link went down (or is leaving): its routes and IPv6 addresses are flushed. */
export function onLinkDown(ns: NsState, link: Link): void {
  ns.routes = ns.routes.filter((r) => r.dev !== link.index);
  ns.addrs = ns.addrs.filter((a) => !(a.link === link.index && a.cidr.ip.family === 6));
  link.addrconfDone = false;
}

/** A link is leaving the namespace: everything attached to it goes. */
export function onLinkGone(ns: NsState, link: Link): void {
  onLinkDown(ns, link);
  ns.addrs = ns.addrs.filter((a) => a.link !== link.index);
  ns.ifSysctls.delete(link.index);
}

/** Gives every operationally up link its IPv6 link-local address once (addrconf). */
export function settleAddrconf(world: World): void {
  for (const ns of world.namespaces.values()) {
    for (const link of ns.links.values()) {
      // An l3mdev master (a VRF) gets no link-local address (addrconf skips it).
      if (link.addrconfDone || !link.up || link.kind === "loopback" || link.kind === "vrf") continue;
      if (ifSysctl(ns, link.index, "ipv6", "disable_ipv6") === "1" || !isOperUp(world, ns, link)) continue;
      link.addrconfDone = true;
      const ip: IP = linkLocalFromMac(link.mac);
      if (!ns.addrs.some((a) => a.link === link.index && ipEqual(a.cidr.ip, ip))) {
        ns.addrs.push({ link: link.index, cidr: { ip, prefix: 64 }, scope: "link", noprefixroute: false });
      }
      if (!ns.routes.some((r) => r.dev === link.index && sameNet(r.dst, LINK_LOCAL_NET))) {
        const table = tableOfLink(ns, link);
        ns.routes.push({
          dst: LINK_LOCAL_NET,
          dev: link.index,
          scope: "global",
          metric: 256,
          protocol: "kernel",
          ...(table !== undefined && { table }),
        });
      }
    }
  }
}

/** True when an IPv6 address is link-local (fe80::/10). */
export function isLinkLocal(ip: IP): boolean {
  return ip.family === 6 && contains({ ip: { family: 6, value: 0xfe80n << 112n }, prefix: 10 }, ip);
}
