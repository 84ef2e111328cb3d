/**
 * What the kernel will hold for one container interface once a planned ADD has run, for
 * `cni plan`'s chained planners (sbr without `table`, vrf) that read the interface after
 * the interface plugin's ADD: its addresses, and its main-table routes, both those the
 * ops add and those the kernel adds by itself. The kernel's facts are the fake kernel's
 * (kernel/fake/connected.ts; held to Linux by planned-link.linux.test.ts): an address on an up link gets a prefix
 * route (IPv4 scope link with the address as source, none for a /32; IPv6 scope global,
 * metric 256), and an up link with a carrier and IPv6 on gets the fe80::/64 route. A veth
 * has a carrier (its plugin brings the peer up), a moved device is assumed to have one,
 * a tap has none until a program opens it; enslaving to a VRF flushes the main-table
 * routes and IPv6 addresses (their copies go to the VRF's table). Routes are listed in
 * the kernel's dump order (see `order`). Pure.
 */
import { routeDumpOrder, type KernelOp, type RouteInfo } from "@tscni/kernel";
import { formatAddr, formatPrefix, network, parsePrefix, type IPNet } from "@tscni/spec/ipnet";

/** The planned interface after the ops. */
export interface PlannedLink {
  /** False when no op brings the interface into the namespace. */
  exists: boolean;
  /** Addresses the ops put on it, in order (`addr.add` cidrs). */
  cidrs: string[];
  /** Its main-table routes. */
  routes: RouteInfo[];
}

interface Tracked {
  name: string;
  up: boolean;
  carrier: boolean;
  /** The interface's own disable_ipv6, when the ops set it. */
  ipv6Off?: boolean;
  /** Enslaved (to a VRF: nothing else enslaves a container interface): its kernel routes live in the VRF's table. */
  enslaved?: boolean;
}

const v6LinkLocal = "fe80::/64";

function prefixRoute(dev: string, cidr: string, noprefixroute: boolean | undefined): RouteInfo | undefined {
  const net = parsePrefix(cidr);
  if (net === undefined || noprefixroute === true || (net.ip.family === 4 && net.prefix === 32)) return undefined;
  const dst = formatPrefix(network(net));
  return net.ip.family === 4
    ? { dst, family: 4, dev, src: formatAddr(net.ip), scope: "link", protocol: "kernel" }
    : { dst, family: 6, dev, scope: "global", metric: 256, protocol: "kernel" };
}

/** A prefix as the kernel lists it (host bits cleared). */
const canonical = (dst: string): string => {
  const net = parsePrefix(dst);
  return net === undefined ? dst : formatPrefix(network(net));
};

function sameRoute(a: RouteInfo, dst: string, gw: string | undefined, metric: number | undefined): boolean {
  return (
    a.dst === canonical(dst) &&
    (gw === undefined || a.gw === gw) &&
    (metric === undefined || (a.metric ?? 0) === metric)
  );
}

/** The kernel's dump order (`routeDumpOrder`), then by metric. */
function order(a: RouteInfo, b: RouteInfo): number {
  return (
    a.family - b.family ||
    routeDumpOrder(parsePrefix(a.dst) as IPNet, parsePrefix(b.dst) as IPNet) ||
    (a.metric ?? 0) - (b.metric ?? 0)
  );
}

/**
 * `ifName` in `ns` after `ops` (the planned ADD so far), the interface new to `ns`.
 * `ipv6Default`: IPv6 is on for a new link (the namespace's
 * `net.ipv6.conf.default.disable_ipv6` is "0"; a new link inherits it).
 */
export function plannedLink(ops: readonly KernelOp[], ns: string, ifName: string, ipv6Default: boolean): PlannedLink {
  let link: Tracked | undefined;
  const addrs: { cidr: string; noprefixroute?: boolean }[] = [];
  let routes: RouteInfo[] = [];
  const addKernelRoutes = (): void => {
    if (link === undefined || !link.up || link.enslaved) return;
    for (const a of addrs) {
      const r = prefixRoute(link.name, a.cidr, a.noprefixroute);
      if (r !== undefined && !routes.some((x) => x.protocol === "kernel" && x.dst === r.dst)) routes.push(r);
    }
    const ipv6 = link.ipv6Off === undefined ? ipv6Default : !link.ipv6Off;
    if (link.carrier && ipv6 && !routes.some((x) => x.dst === v6LinkLocal))
      routes.push({ dst: v6LinkLocal, family: 6, dev: link.name, scope: "global", metric: 256, protocol: "kernel" });
  };
  for (const op of ops) {
    if (
      op.op === "veth.add" &&
      ((op.ns === ns && op.name === ifName) || (op.peer.ns === ns && op.peer.name === ifName))
    )
      link = { name: ifName, up: false, carrier: true };
    else if (op.op === "tap.add" && op.ns === ns && op.name === ifName)
      link = { name: ifName, up: false, carrier: false };
    else if (op.op === "link.move" && op.to === ns) link = { name: op.name, up: false, carrier: true };
    if (link === undefined || !("ns" in op) || op.ns !== ns) continue;
    if (op.op === "link.set" && op.name === link.name) {
      if (op.newName !== undefined) link.name = op.newName;
      if (typeof op.master === "string") {
        // Enslaving to a VRF cycles the link: its routes and IPv6 addresses are flushed.
        link.enslaved = true;
        routes = [];
        addrs.splice(0, addrs.length, ...addrs.filter((a) => parsePrefix(a.cidr)?.ip.family !== 6));
      }
      if (op.up === true) {
        link.up = true;
        addKernelRoutes();
      } else if (op.up === false) {
        // Down flushes its routes and IPv6 addresses (keep_addr_on_down=0).
        link.up = false;
        routes = [];
        addrs.splice(0, addrs.length, ...addrs.filter((a) => parsePrefix(a.cidr)?.ip.family !== 6));
      }
    } else if (op.op === "sysctl.set" && op.key === `net.ipv6.conf.${link.name}.disable_ipv6`)
      link.ipv6Off = op.value === "1";
    else if (op.op === "addr.add" && op.dev === link.name) {
      addrs.push({ cidr: op.cidr, ...(op.noprefixroute !== undefined && { noprefixroute: op.noprefixroute }) });
      addKernelRoutes();
    } else if (op.op === "route.add" && op.dev === link.name && (op.table === undefined || op.table === 254)) {
      const family = parsePrefix(op.dst)?.ip.family ?? 4;
      routes.push({
        dst: canonical(op.dst),
        family,
        ...(op.gw !== undefined && { gw: op.gw }),
        dev: link.name,
        ...(op.src !== undefined && { src: op.src }),
        // IPv6 routes have no scope: Linux lists each as global, whatever was asked.
        scope: family === 6 ? "global" : (op.scope ?? (op.gw === undefined ? "link" : "global")),
        ...(family === 6 ? { metric: op.metric ?? 1024 } : op.metric ? { metric: op.metric } : {}),
        ...(op.mtu !== undefined && { mtu: op.mtu }),
        ...(op.advmss !== undefined && { advmss: op.advmss }),
        protocol: op.protocol ?? "boot",
      });
    } else if (op.op === "route.del" && (op.dev === undefined || op.dev === link.name) && op.table === undefined)
      routes = routes.filter((r) => !sameRoute(r, op.dst, op.gw, op.metric));
  }
  return { exists: link !== undefined, cidrs: addrs.map((a) => a.cidr), routes: [...routes].sort(order) };
}
