/**
 * The kernel state a plugin call leaves behind, read the same way on both sides of a twin
 * and reduced to what must be equal: links (kind, mtu, state, flags, master, hairpin,
 * VLAN filtering), addresses (with the IPv4 broadcast netlink's AddrAdd sets), main-table routes of both families, the sysctls the
 * plugins write, and the host-local store (file names and contents).
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { run } from "./_reference.ts";
import { type SideCtx, normalizeText } from "./_twin.ts";

interface IpLink {
  ifname: string;
  flags?: string[];
  mtu?: number;
  operstate?: string;
  master?: string;
  address?: string;
  link_type?: string;
  promiscuity?: number;
  linkinfo?: {
    info_kind?: string;
    info_data?: Record<string, unknown>;
    info_slave_kind?: string;
    info_slave_data?: Record<string, unknown>;
  };
}

interface IpAddr {
  ifname: string;
  addr_info?: {
    family: string;
    local: string;
    prefixlen: number;
    broadcast?: string;
    scope?: string;
    noprefixroute?: boolean;
  }[];
}

interface IpRoute {
  dst?: string;
  gateway?: string;
  dev?: string;
  protocol?: string;
  scope?: string;
  prefsrc?: string;
  metric?: number;
  flags?: string[];
  type?: string;
  /** A multipath route's nexthops (IPv6 ECMP). */
  nexthops?: { gateway?: string; dev?: string; flags?: string[] }[];
}

async function ipJson<T>(ns: string, args: string[]): Promise<T[]> {
  const out = await run(["ip", "-n", ns, "-j", ...args]);
  return out.code === 0 && out.stdout.trim() !== "" ? (JSON.parse(out.stdout) as T[]) : [];
}

/** The links of a namespace, sorted by (normalised) name. */
async function links(s: SideCtx, ns: string): Promise<unknown[]> {
  const ls = await ipJson<IpLink>(ns, ["-d", "link", "show"]);
  return ls
    .map((l) => {
      const info = l.linkinfo;
      const slave = info?.info_slave_data ?? {};
      return {
        name: normalizeText(s, l.ifname),
        kind: info?.info_kind ?? l.link_type,
        mtu: l.mtu,
        up: l.flags?.includes("UP") ?? false,
        promisc: (l.flags?.includes("PROMISC") ?? false) || (l.promiscuity ?? 0) > 0,
        master: l.master === undefined ? undefined : normalizeText(s, l.master),
        ...(info?.info_slave_kind === "bridge" ? { hairpin: slave.hairpin, isolated: slave.isolated } : {}),
        ...(info?.info_kind === "bridge" ? { vlanFiltering: info.info_data?.vlan_filtering } : {}),
        ...(info?.info_kind === "macvlan" ? { macvlanMode: info.info_data?.mode } : {}),
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function addresses(s: SideCtx, ns: string): Promise<string[]> {
  const as = await ipJson<IpAddr>(ns, ["addr", "show"]);
  return as
    .flatMap((l) =>
      (l.addr_info ?? []).map(
        (a) =>
          `${normalizeText(s, l.ifname)} ${normalizeText(s, `${a.local}/${a.prefixlen}`)}${a.broadcast ? ` brd ${normalizeText(s, a.broadcast)}` : ""} ${a.scope ?? ""}${a.noprefixroute ? " noprefixroute" : ""}`,
      ),
    )
    .sort();
}

/**
 * Main-table routes of both families, a multipath route with its nexthops in order.
 * `linkdown` is left out: a bridge loses its carrier a moment after its last port goes,
 * so the flag depends on when we look.
 */
async function routes(s: SideCtx, ns: string): Promise<string[]> {
  const rs = [
    ...(await ipJson<IpRoute>(ns, ["-4", "route", "show"])),
    ...(await ipJson<IpRoute>(ns, ["-6", "route", "show"])),
  ];
  return rs
    .map((r) =>
      normalizeText(
        s,
        [
          r.type && r.type !== "unicast" ? r.type : "",
          r.dst,
          r.gateway ? `via ${r.gateway}` : "",
          r.dev ? `dev ${r.dev}` : "",
          r.scope ? `scope ${r.scope}` : "",
          r.prefsrc ? `src ${r.prefsrc}` : "",
          r.protocol ? `proto ${r.protocol}` : "",
          r.metric !== undefined ? `metric ${r.metric}` : "",
          (r.flags ?? []).filter((f) => f !== "linkdown").join(","),
          ...(r.nexthops ?? []).map((h) => `nexthop via ${h.gateway ?? "-"} dev ${h.dev ?? "-"}`),
        ]
          .filter((x) => x !== "")
          .join(" "),
      ),
    )
    .sort();
}

const GLOBAL_SYSCTLS = ["net/ipv4/ip_forward", "net/ipv6/conf/all/forwarding"];
const IF_SYSCTLS = [
  "ipv4/conf/IF/arp_notify",
  "ipv4/conf/IF/forwarding",
  "ipv6/conf/IF/accept_ra",
  "ipv6/conf/IF/accept_dad",
  "ipv6/conf/IF/enhanced_dad",
  "ipv6/conf/IF/keep_addr_on_down",
  "ipv6/conf/IF/disable_ipv6",
  "ipv6/conf/IF/ndisc_notify",
];

/** The sysctls the plugins write, for every link of the namespace (lo included). */
async function sysctls(s: SideCtx, ns: string, names: string[]): Promise<string[]> {
  const files = [
    ...GLOBAL_SYSCTLS.map((f) => `/proc/sys/${f}`),
    ...names.flatMap((n) => IF_SYSCTLS.map((f) => `/proc/sys/net/${f.replace("IF", n)}`)),
  ];
  const script = `for f in ${files.map((f) => `'${f}'`).join(" ")}; do [ -r "$f" ] && echo "$f $(cat "$f")"; done; true`;
  const out = await run(["ip", "netns", "exec", ns, "sh", "-c", script]);
  return out.stdout
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => normalizeText(s, l.replace("/proc/sys/net/", "")));
}

/** The state of one namespace. */
export async function nsState(s: SideCtx, ns: string): Promise<unknown> {
  const ls = await ipJson<IpLink>(ns, ["link", "show"]);
  const [l, a, r, y] = await Promise.all([
    links(s, ns),
    addresses(s, ns),
    routes(s, ns),
    sysctls(
      s,
      ns,
      ls.map((x) => x.ifname),
    ),
  ]);
  return { links: l, addresses: a, routes: r, sysctls: y };
}

/**
 * The host-local store under the side's data dir: every network's files with contents
 * (the reference writes them 0644, we 0600 like upstream today: modes are not compared;
 * our attachment index `.tscni-index` and lock directory `.tscni-locks` are ours alone).
 */
export function storeState(s: SideCtx): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(s.dataDir)) return out;
  for (const net of readdirSync(s.dataDir).sort()) {
    if (net === ".tscni-index" || net === ".tscni-locks") continue;
    const dir = join(s.dataDir, net);
    if (!statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir).sort())
      out[`${net}/${f}`] = normalizeText(s, readFileSync(join(dir, f), "latin1"));
  }
  return out;
}

/** The whole side: host, every container, and the store. */
export async function sideState(s: SideCtx): Promise<unknown> {
  const [host, ...containers] = await Promise.all([
    nsState(s, s.world.host),
    ...s.world.containers.map((c) => nsState(s, c)),
  ]);
  return { host, containers, store: storeState(s) };
}
