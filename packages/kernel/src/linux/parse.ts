/**
 * `ip -json` output decoded into the port's typed snapshots. Pure: each function takes
 * the text iproute2 printed. Fields absent from the JSON take iproute2's defaults (no
 * `scope` means global, no `table` means main, no `protocol` means boot).
 */
import type { AddrInfo, LinkInfo, RouteInfo } from "../kernel.ts";

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const flag = (v: unknown): boolean | undefined =>
  typeof v === "boolean" ? v : typeof v === "number" ? v !== 0 : undefined;

function rows(text: string): Json[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const parsed: unknown = JSON.parse(trimmed);
  return Array.isArray(parsed) ? parsed.map(obj) : [];
}

/** Links from `ip -json -details link show`. */
export function parseLinks(text: string): LinkInfo[] {
  return rows(text).map((r) => {
    const info = obj(r.linkinfo);
    const data = obj(info.info_data);
    const flags = Array.isArray(r.flags) ? r.flags : [];
    const kind = str(info.info_kind) ?? (str(r.link_type) === "loopback" ? "loopback" : "device");
    const link: LinkInfo = {
      index: num(r.ifindex) ?? 0,
      name: str(r.ifname) ?? "",
      kind,
      mac: str(r.address) ?? "",
      mtu: num(r.mtu) ?? 0,
      up: flags.includes("UP"),
      operState: str(r.operstate) ?? "UNKNOWN",
      promisc: flags.includes("PROMISC"),
    };
    if (flags.includes("ALLMULTI")) link.allmulti = true;
    if (num(r.txqlen) !== undefined) link.txQLen = num(r.txqlen);
    if (num(r.promiscuity) !== undefined) link.promiscuity = num(r.promiscuity);
    const master = str(r.master);
    if (master !== undefined) link.master = master;
    const alias = str(r.ifalias);
    if (alias !== undefined && alias !== "") link.alias = alias;
    if (kind === "veth" && num(r.link_index) !== undefined) link.peerIndex = num(r.link_index);
    if (str(info.info_slave_kind) === "bridge") {
      const port = obj(info.info_slave_data);
      link.hairpin = flag(port.hairpin) ?? false;
      link.isolated = flag(port.isolated) ?? false;
    }
    if (kind === "bridge") link.vlanFiltering = flag(data.vlan_filtering) ?? false;
    if (kind === "vrf" && num(data.table) !== undefined) link.vrfTable = num(data.table);
    // `ip -d -j` prints a macvlan's and an ipvlan's mode (and ipvlan's flag) by name.
    if (kind === "macvlan" && str(data.mode) !== undefined) link.macvlanMode = str(data.mode);
    if (kind === "ipvlan" && str(data.mode) !== undefined)
      Object.assign(link, { ipvlanMode: str(data.mode), ipvlanFlag: str(data.flags) ?? "bridge" });
    if (kind === "vlan") {
      const id = num(data.id);
      if (id !== undefined) link.vlanId = id;
      const parent = str(r.link);
      if (parent !== undefined) link.parent = parent;
    }
    return link;
  });
}

/** Addresses from `ip -json addr show`. */
export function parseAddrs(text: string): AddrInfo[] {
  const out: AddrInfo[] = [];
  for (const r of rows(text)) {
    const dev = str(r.ifname) ?? "";
    for (const a of Array.isArray(r.addr_info) ? r.addr_info.map(obj) : []) {
      const family = str(a.family);
      const local = str(a.local);
      const len = num(a.prefixlen);
      if ((family !== "inet" && family !== "inet6") || local === undefined || len === undefined) continue;
      const addr: AddrInfo = {
        dev,
        cidr: `${local}/${len}`,
        family: family === "inet" ? 4 : 6,
        scope: str(a.scope) ?? "global",
      };
      const brd = str(a.broadcast);
      if (brd !== undefined) addr.broadcast = brd;
      if (a.tentative === true) addr.tentative = true;
      if (a.dadfailed === true) addr.dadfailed = true;
      out.push(addr);
    }
  }
  return out;
}

/**
 * Routes of one family from `ip -json -4|-6 route show table ...`. A multipath route
 * (IPv6 ECMP, `nexthops`) is one route per nexthop, as IPv4 lists ECMP routes.
 */
export function parseRoutes(text: string, family: 4 | 6): RouteInfo[] {
  return rows(text).flatMap((r) => {
    const hops = Array.isArray(r.nexthops) ? r.nexthops.map(obj) : [];
    return hops.length === 0
      ? [parseRoute(r, family)]
      : hops.map((h) => parseRoute({ ...r, gateway: h.gateway, dev: h.dev }, family));
  });
}

function parseRoute(r: Json, family: 4 | 6): RouteInfo {
  {
    const raw = str(r.dst) ?? "default";
    const dst =
      raw === "default"
        ? family === 4
          ? "0.0.0.0/0"
          : "::/0"
        : raw.includes("/")
          ? raw
          : `${raw}/${family === 4 ? 32 : 128}`;
    const route: RouteInfo = { dst, family, scope: str(r.scope) ?? "global" };
    const gw = str(r.gateway);
    if (gw !== undefined) route.gw = gw;
    const dev = str(r.dev);
    if (dev !== undefined) route.dev = dev;
    const src = str(r.prefsrc);
    if (src !== undefined) route.src = src;
    const table =
      num(r.table) ?? (str(r.table) !== undefined && /^\d+$/.test(str(r.table) ?? "") ? Number(r.table) : undefined);
    if (table !== undefined) route.table = table;
    const metric = num(r.metric);
    if (metric !== undefined) route.metric = metric;
    for (const m of Array.isArray(r.metrics) ? r.metrics.map(obj) : []) {
      if (num(m.mtu) !== undefined) route.mtu = num(m.mtu);
      if (num(m.advmss) !== undefined) route.advmss = num(m.advmss);
    }
    route.protocol = str(r.protocol) ?? "boot";
    return route;
  }
}
