/**
 * `addr.add` / `addr.del`. An address on an up link brings its prefix route
 * (connected.ts). Duplicates are `exists` (IPv4: same address and prefix; IPv6: same
 * address), a missing address is `not-found`, IPv6 on a link with `disable_ipv6=1` is
 * refused; an IPv4 address keeps the `broadcast` it was given. Deleting a primary IPv4
 * address (the first of its subnet and prefix on the link) deletes its secondaries with it,
 * unless `promote_secondaries` (the link's or `all`) is 1: then the next one is promoted
 * (`__inet_del_ifa`, devinet.c; checked on Linux 6.18).
 */
import { KernelError, type AddrOp, type RouteScope } from "../index.ts";
import { addPrefixRoute, isLinkLocal, removeAddrEffects } from "./connected.ts";
import { type IPNet, contains, ipEqual, parseAddr } from "@tscni/spec/ipnet";
import { parseCidr } from "./ip.ts";
import { requireLink, requireNs, type World } from "./state.ts";
import { ifSysctl } from "./sysctl-store.ts";
import type { Addr, NsState } from "./state.ts";

const LOOPBACK4 = parseCidr("127.0.0.0/8") as IPNet;

/** The scope the kernel gives an address when none is asked for. */
export function defaultScope(cidr: IPNet): RouteScope {
  if (cidr.ip.family === 4) return contains(LOOPBACK4, cidr.ip) ? "host" : "global";
  if (isLinkLocal(cidr.ip)) return "link";
  return ipEqual(cidr.ip, parseAddr("::1")!) ? "host" : "global";
}

/** Parses an operation's CIDR or throws `invalid`. */
export function requireCidr(text: string): IPNet {
  const cidr = parseCidr(text);
  if (!cidr) throw new KernelError("invalid", `invalid address "${text}"`);
  return cidr;
}

/**
 * The secondaries that go with `addr` when it is deleted: the other IPv4 addresses of its
 * subnet and prefix on the link when `addr` is their primary (the first added) and
 * promotion is off (IN_DEV_PROMOTE_SECONDARIES: `all` or the link's sysctl). Read before
 * `addr` leaves the list.
 */
function secondariesOf(ns: NsState, addr: Addr): Addr[] {
  if (addr.cidr.ip.family !== 4) return [];
  const subnet = ns.addrs.filter(
    (a) =>
      a.link === addr.link &&
      a.cidr.ip.family === 4 &&
      a.cidr.prefix === addr.cidr.prefix &&
      contains(addr.cidr, a.cidr.ip),
  );
  const promote =
    ns.sysctls.get("net.ipv4.conf.all.promote_secondaries") === "1" ||
    ifSysctl(ns, addr.link, "ipv4", "promote_secondaries") === "1";
  return subnet[0] === addr && !promote ? subnet.slice(1) : [];
}

/** Applies one `addr.add` or `addr.del`. */
export function applyAddr(world: World, op: AddrOp): void {
  const ns = requireNs(world, op.ns);
  const link = requireLink(ns, op.dev);
  const cidr = requireCidr(op.cidr);
  const same = (a: { link: number; cidr: IPNet }) =>
    a.link === link.index && ipEqual(a.cidr.ip, cidr.ip) && (cidr.ip.family === 6 || a.cidr.prefix === cidr.prefix);
  if (op.op === "addr.del") {
    const addr = ns.addrs.find((a) => same(a) && a.cidr.prefix === cidr.prefix);
    if (!addr) throw new KernelError("not-found", `address "${op.cidr}" not found on "${op.dev}"`);
    const secondaries = secondariesOf(ns, addr);
    ns.addrs = ns.addrs.filter((a) => a !== addr && !secondaries.includes(a));
    removeAddrEffects(ns, addr);
    return;
  }
  if (cidr.ip.family === 6 && ifSysctl(ns, link.index, "ipv6", "disable_ipv6") === "1") {
    throw new KernelError("invalid", `cannot add "${op.cidr}" to "${op.dev}": IPv6 is disabled on it`);
  }
  if (ns.addrs.some(same)) throw new KernelError("exists", `address "${op.cidr}" already exists on "${op.dev}"`);
  // iproute2 reads `broadcast` in the address's family; IPv6 has no broadcast, the kernel ignores it.
  const brd = op.broadcast === undefined ? undefined : parseAddr(op.broadcast);
  if (op.broadcast !== undefined && brd?.family !== cidr.ip.family)
    throw new KernelError("invalid", `invalid broadcast address "${op.broadcast}"`);
  const addr = {
    link: link.index,
    cidr,
    scope: op.scope ?? defaultScope(cidr),
    noprefixroute: op.noprefixroute ?? false,
    ...(brd?.family === 4 && { broadcast: brd }),
  };
  ns.addrs.push(addr);
  addPrefixRoute(ns, link, addr);
}
