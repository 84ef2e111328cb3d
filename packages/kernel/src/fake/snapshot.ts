/**
 * Plain-data snapshots of a namespace, in a deterministic order, in the same shapes the
 * Kernel port returns (LinkInfo, AddrInfo, RouteInfo), plus sysctls and bridge VLANs.
 */
import type { AddrInfo, LinkInfo, Netns, RouteInfo, RuleInfo } from "../index.ts";
import { ruleInfos } from "./fake-rules.ts";
import { routeDumpOrder } from "../route-order.ts";
import { formatAddr, formatPrefix, network } from "@tscni/spec/ipnet";
import { tuningInfo } from "./link-tuning.ts";
import { operState } from "./operstate.ts";
import type { NsState, Route, World } from "./state.ts";
import { sublinkInfo } from "./fake-sublinks.ts";
import { tcTable, type LinkTc } from "./fake-tc.ts";

/** Everything observable about one namespace. */
export interface NamespaceSnapshot {
  ns: Netns;
  /** By interface index. */
  links: LinkInfo[];
  /** By link index, then family, then the order they were added. */
  addresses: AddrInfo[];
  /** By family, table, destination, metric. */
  routes: RouteInfo[];
  /** Every sysctl the model knows, sorted by key (per-interface ones included). */
  sysctls: Record<string, string>;
  /** Bridge VLANs per device (`bridge vlan show`), sorted by VLAN id. */
  bridgeVlans: Record<string, { vid: number; pvid: boolean; untagged: boolean }[]>;
  /** Policy rules, IPv4 then IPv6, by priority (fake-rules.ts). */
  rules: RuleInfo[];
  /** Qdiscs and filters added to links, by link name (fake-tc.ts). */
  tc: Record<string, LinkTc>;
}

/** Links of a namespace as the Kernel port reports them. */
export function linkInfos(world: World, ns: NsState): LinkInfo[] {
  const name = (index: number | undefined) => (index === undefined ? undefined : ns.links.get(index)?.name);
  return [...ns.links.values()]
    .sort((a, b) => a.index - b.index)
    .map((l) => ({
      index: l.index,
      name: l.name,
      kind: l.kind,
      mac: l.mac,
      mtu: l.mtu,
      up: l.up,
      operState: operState(world, ns, l),
      promisc: l.promisc,
      ...tuningInfo(l),
      ...(l.master !== undefined && {
        master: name(l.master),
        hairpin: l.hairpin ?? false,
        isolated: l.isolated ?? false,
      }),
      ...(l.peer && { peerIndex: l.peer.index }),
      ...(l.kind === "bridge" && { vlanFiltering: l.vlanFiltering ?? false }),
      ...(l.kind === "vlan" && { vlanId: l.vlanId, parent: name(l.parent) }),
      ...(l.kind === "vrf" && { vrfTable: l.vrfTable }),
      ...sublinkInfo(l),
      ...(l.alias !== undefined && l.alias !== "" && { alias: l.alias }),
    }));
}

/** Addresses of a namespace as the Kernel port reports them. */
export function addrInfos(ns: NsState, dev?: string): AddrInfo[] {
  return ns.addrs
    .map((a, order) => ({ a, order }))
    .sort((x, y) => x.a.link - y.a.link || x.a.cidr.ip.family - y.a.cidr.ip.family || x.order - y.order)
    .map(({ a }) => ({
      dev: ns.links.get(a.link)?.name ?? "?",
      cidr: formatPrefix(a.cidr),
      family: a.cidr.ip.family,
      scope: a.scope,
      ...(a.broadcast && { broadcast: formatAddr(a.broadcast) }),
    }))
    .filter((a) => dev === undefined || a.dev === dev);
}

/** One route as the Kernel port reports it. */
export function routeInfo(ns: NsState, r: Route): RouteInfo {
  return {
    dst: formatPrefix(network(r.dst)),
    family: r.dst.ip.family,
    ...(r.gw && { gw: formatAddr(r.gw) }),
    dev: ns.links.get(r.dev)?.name ?? "?",
    ...(r.src && { src: formatAddr(r.src) }),
    scope: r.scope,
    ...(r.table !== undefined && { table: r.table }),
    ...(r.metric !== undefined && { metric: r.metric }),
    ...(r.mtu !== undefined && { mtu: r.mtu }),
    ...(r.advmss !== undefined && { advmss: r.advmss }),
    protocol: r.protocol,
  };
}

/** Routes of a namespace, optionally of one family, per table in the order Linux lists them (route-order.ts). */
export function routeInfos(ns: NsState, family?: 4 | 6): RouteInfo[] {
  return ns.routes
    .filter((r) => family === undefined || r.dst.ip.family === family)
    .sort(
      (a, b) =>
        a.dst.ip.family - b.dst.ip.family ||
        (a.table ?? 254) - (b.table ?? 254) ||
        routeDumpOrder(network(a.dst), network(b.dst)) ||
        (a.metric ?? 0) - (b.metric ?? 0) ||
        a.dev - b.dev,
    )
    .map((r) => routeInfo(ns, r));
}

/** Every sysctl of a namespace, per-interface keys written as sysctl(8) does (dots in names as `/`). */
export function sysctlTable(ns: NsState): Record<string, string> {
  const entries: [string, string][] = [...ns.sysctls.entries()];
  for (const [index, table] of ns.ifSysctls) {
    const name = ns.links.get(index)?.name.replaceAll(".", "/") ?? `?${index}`;
    for (const [k, v] of table) {
      const [fam, leaf] = k.split(".");
      entries.push([`net.${fam}.conf.${name}.${leaf}`, v]);
    }
  }
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A full snapshot of one namespace. */
export function snapshotOf(world: World, ns: NsState): NamespaceSnapshot {
  const bridgeVlans: NamespaceSnapshot["bridgeVlans"] = {};
  for (const l of [...ns.links.values()].sort((a, b) => a.index - b.index)) {
    if (!l.vlans) continue;
    bridgeVlans[l.name] = [...l.vlans.entries()].sort(([a], [b]) => a - b).map(([vid, e]) => ({ vid, ...e }));
  }
  return {
    ns: ns.path,
    links: linkInfos(world, ns),
    addresses: addrInfos(ns),
    routes: routeInfos(ns),
    sysctls: sysctlTable(ns),
    bridgeVlans,
    rules: ruleInfos(ns),
    tc: tcTable(ns.links.values()),
  };
}
