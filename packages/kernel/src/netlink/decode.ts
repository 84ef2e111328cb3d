/**
 * Dump replies decoded into the port's typed snapshots, field for field as the iproute2
 * driver reads them from `ip -json` (linux/parse.ts), so both drivers see one kernel
 * alike: where `ip` prints a name (a master, a same-namespace peer) or leaves a field
 * out, so does this. Pure.
 */
import type { AddrInfo, LinkInfo, RouteInfo } from "../kernel.ts";
import * as K from "./constants.ts";
import { ipText, macText } from "./text.ts";
import { attrBytes, attrs, attrStr, attrU } from "./wire.ts";
import { sublinkModes } from "./encode-sublinks.ts";

/** The fixed header of an RTM_NEWLINK message. */
export interface RawLink {
  index: number;
  type: number;
  flags: number;
  attrs: Map<number, DataView>;
}

/** The link attributes {@link decodeLinks} reads. */
const LINK_ATTRS: ReadonlySet<number> = new Set([
  K.IFLA_ADDRESS,
  K.IFLA_IFNAME,
  K.IFLA_MTU,
  K.IFLA_LINK,
  K.IFLA_MASTER,
  K.IFLA_OPERSTATE,
  K.IFLA_LINKINFO,
  K.IFLA_LINK_NETNSID,
  K.IFLA_TXQLEN,
  K.IFLA_PROMISCUITY,
  K.IFLA_IFALIAS,
]);

/** Splits an RTM_NEWLINK payload into its `ifinfomsg` and the attributes the decoders read. */
export function rawLink(p: DataView): RawLink {
  return {
    index: p.getInt32(4, true),
    type: p.getUint16(2, true),
    flags: p.getUint32(8, true),
    attrs: attrs(p, 16, LINK_ATTRS),
  };
}

const TUNNEL4 = new Set([K.ARPHRD_TUNNEL, K.ARPHRD_SIT, K.ARPHRD_IPGRE]);
const TUNNEL6 = new Set([K.ARPHRD_TUNNEL6, K.ARPHRD_IP6GRE]);

/** ll_addr_n2a: tunnels' link addresses are IPs, everything else colon hex. */
function linkAddress(type: number, b: Uint8Array): string {
  if ((TUNNEL4.has(type) && b.length === 4) || (TUNNEL6.has(type) && b.length === 16)) return ipText(b);
  return macText(b);
}

const flag = (v: DataView | undefined): boolean | undefined => (v === undefined ? undefined : attrU(v) !== 0);

/** Decodes the links of one namespace from its RTM_GETLINK dump, in dump order. */
export function decodeLinks(raws: readonly RawLink[]): LinkInfo[] {
  const names = new Map(raws.map((r) => [r.index, attrStr(r.attrs.get(K.IFLA_IFNAME)) ?? ""]));
  // ll_index_to_name: an index this namespace does not know prints as `if<N>`.
  const nameOf = (i: number): string => names.get(i) ?? `if${i}`;
  return raws.map((r) => decodeLink(r, nameOf));
}

/**
 * The indexes of other links that one link's decoding names (its master, a vlan's
 * parent): what a read of that link alone must look up.
 */
export function linkedIndexes(r: RawLink): number[] {
  const out: number[] = [];
  const master = attrU(r.attrs.get(K.IFLA_MASTER));
  if (master !== undefined && master !== 0) out.push(master);
  const peer = attrU(r.attrs.get(K.IFLA_LINK));
  if (peer !== undefined && peer !== 0 && !r.attrs.has(K.IFLA_LINK_NETNSID)) out.push(peer);
  return out;
}

/** Decodes one link; `nameOf` names another link of its namespace by index (`if<N>` when there is none). */
export function decodeLink(r: RawLink, nameOf: (index: number) => string): LinkInfo {
  const a = r.attrs;
  const info = a.has(K.IFLA_LINKINFO) ? attrs(a.get(K.IFLA_LINKINFO)!) : new Map<number, DataView>();
  const kind = attrStr(info.get(K.IFLA_INFO_KIND)) ?? (r.type === K.ARPHRD_LOOPBACK ? "loopback" : "device");
  const operState = attrU(a.get(K.IFLA_OPERSTATE));
  const mac = a.get(K.IFLA_ADDRESS);
  const link: LinkInfo = {
    index: r.index,
    name: attrStr(a.get(K.IFLA_IFNAME)) ?? "",
    kind,
    mac: mac === undefined ? "" : linkAddress(r.type, attrBytes(mac)),
    mtu: attrU(a.get(K.IFLA_MTU)) ?? 0,
    up: (r.flags & K.IFF_UP) !== 0,
    operState: operState === undefined ? "UNKNOWN" : (K.OPER_STATES[operState] ?? "UNKNOWN"),
    promisc: (r.flags & K.IFF_PROMISC) !== 0,
  };
  if ((r.flags & K.IFF_ALLMULTI) !== 0) link.allmulti = true;
  const txQLen = attrU(a.get(K.IFLA_TXQLEN));
  if (txQLen !== undefined) link.txQLen = txQLen;
  const promiscuity = attrU(a.get(K.IFLA_PROMISCUITY));
  if (promiscuity !== undefined) link.promiscuity = promiscuity;
  const master = attrU(a.get(K.IFLA_MASTER));
  if (master !== undefined && master !== 0) link.master = nameOf(master);
  const alias = attrStr(a.get(K.IFLA_IFALIAS));
  if (alias !== undefined && alias !== "") link.alias = alias;
  const peer = attrU(a.get(K.IFLA_LINK));
  // `ip` prints the index of a link in another namespace, the name of one in this one.
  const foreign = a.has(K.IFLA_LINK_NETNSID);
  if (kind === "veth" && peer !== undefined && peer !== 0 && foreign) link.peerIndex = peer;
  if (attrStr(info.get(K.IFLA_INFO_SLAVE_KIND)) === "bridge") {
    const port = info.has(K.IFLA_INFO_SLAVE_DATA)
      ? attrs(info.get(K.IFLA_INFO_SLAVE_DATA)!)
      : new Map<number, DataView>();
    link.hairpin = flag(port.get(K.IFLA_BRPORT_MODE)) ?? false;
    link.isolated = flag(port.get(K.IFLA_BRPORT_ISOLATED)) ?? false;
  }
  const data = info.has(K.IFLA_INFO_DATA) ? attrs(info.get(K.IFLA_INFO_DATA)!) : new Map<number, DataView>();
  if (kind === "bridge") link.vlanFiltering = flag(data.get(K.IFLA_BR_VLAN_FILTERING)) ?? false;
  // IFLA_VRF_TABLE is attribute 1 of a VRF's data (netlink/rule-constants.ts).
  if (kind === "vrf" && attrU(data.get(1)) !== undefined) link.vrfTable = attrU(data.get(1));
  Object.assign(link, sublinkModes(kind, data));
  if (kind === "vlan") {
    const id = attrU(data.get(K.IFLA_VLAN_ID));
    if (id !== undefined) link.vlanId = id;
    if (peer !== undefined && peer !== 0 && !foreign) link.parent = nameOf(peer);
  }
  return link;
}

const scopeName = (n: number): string => K.SCOPE_NAMES[n] ?? String(n);

/**
 * Decodes RTM_GETADDR replies as `ip addr show` lists them: link by link in link order,
 * each link's addresses in dump order (IPv4 before IPv6).
 */
export function decodeAddrs(payloads: readonly DataView[], links: readonly RawLink[]): AddrInfo[] {
  const byIndex = new Map<number, AddrInfo[]>();
  for (const p of payloads) {
    const family = p.getUint8(0);
    if (family !== K.AF_INET && family !== K.AF_INET6) continue;
    const a = attrs(p, 8);
    const local = a.get(K.IFA_LOCAL) ?? a.get(K.IFA_ADDRESS);
    if (local === undefined) continue;
    const index = p.getUint32(4, true);
    const flags = attrU(a.get(K.IFA_FLAGS)) ?? p.getUint8(2);
    const addr: AddrInfo = {
      dev: "",
      cidr: `${ipText(attrBytes(local))}/${p.getUint8(1)}`,
      family: family === K.AF_INET ? 4 : 6,
      scope: scopeName(p.getUint8(3)),
    };
    const brd = a.get(K.IFA_BROADCAST);
    if (brd !== undefined) addr.broadcast = ipText(attrBytes(brd));
    if ((flags & K.IFA_F_TENTATIVE) !== 0) addr.tentative = true;
    if ((flags & K.IFA_F_DADFAILED) !== 0) addr.dadfailed = true;
    const list = byIndex.get(index) ?? [];
    list.push(addr);
    byIndex.set(index, list);
  }
  const out: AddrInfo[] = [];
  for (const l of links) {
    const dev = attrStr(l.attrs.get(K.IFLA_IFNAME)) ?? "";
    for (const addr of byIndex.get(l.index) ?? []) out.push({ ...addr, dev });
  }
  return out;
}

/**
 * Decodes RTM_GETROUTE replies of one family as `ip -json route show table main` lists
 * them; `nameOf` names an output interface by index (`if<N>` when there is none).
 */
export function decodeRoutes(
  payloads: readonly DataView[],
  family: 4 | 6,
  nameOf: (index: number) => string,
  want: number = K.RT_TABLE_MAIN,
): RouteInfo[] {
  const out: RouteInfo[] = [];
  for (const p of payloads) {
    if (p.getUint8(0) !== (family === 4 ? K.AF_INET : K.AF_INET6)) continue;
    const a = attrs(p, 12);
    const table = attrU(a.get(K.RTA_TABLE)) ?? p.getUint8(4);
    const type = p.getUint8(7);
    if (table !== want || (p.getUint32(8, true) & K.RTM_F_CLONED) !== 0) continue;
    if (family === 6 && type === K.RTN_LOCAL) continue;
    const len = p.getUint8(1);
    const dstAttr = a.get(K.RTA_DST);
    const dst =
      dstAttr !== undefined
        ? `${ipText(attrBytes(dstAttr))}/${len}`
        : len === 0
          ? family === 4
            ? "0.0.0.0/0"
            : "::/0"
          : `${family === 4 ? "0.0.0.0" : "::"}/${len}`;
    const route: RouteInfo = { dst, family, scope: scopeName(p.getUint8(6)) };
    if (table !== K.RT_TABLE_MAIN) route.table = table;
    const src = a.get(K.RTA_PREFSRC);
    if (src !== undefined) route.src = ipText(attrBytes(src));
    const metric = attrU(a.get(K.RTA_PRIORITY));
    if (metric !== undefined) route.metric = metric;
    const metrics = a.get(K.RTA_METRICS);
    if (metrics !== undefined) {
      const m = attrs(metrics);
      const mtu = attrU(m.get(K.RTAX_MTU));
      if (mtu !== undefined) route.mtu = mtu;
      const advmss = attrU(m.get(K.RTAX_ADVMSS));
      if (advmss !== undefined) route.advmss = advmss;
    }
    const protocol = p.getUint8(5);
    route.protocol = K.PROTOCOL_NAMES[protocol] ?? String(protocol);
    // A multipath route (IPv6 ECMP) is one route per nexthop, as the iproute2 driver reads it.
    const hops = a.has(K.RTA_MULTIPATH)
      ? nexthops(a.get(K.RTA_MULTIPATH)!)
      : [{ gw: a.get(K.RTA_GATEWAY), oif: attrU(a.get(K.RTA_OIF)) }];
    const { dst: d, family: f, scope, ...rest } = route;
    for (const hop of hops) {
      const one: RouteInfo = {
        dst: d,
        family: f,
        scope,
        ...(hop.gw !== undefined ? { gw: ipText(attrBytes(hop.gw)) } : {}),
        ...(hop.oif !== undefined ? { dev: nameOf(hop.oif) } : {}),
        ...rest,
      };
      out.push(one);
    }
  }
  return out;
}

/** One nexthop of a route: its gateway attribute and output interface. */
export interface Nexthop {
  gw: DataView | undefined;
  oif: number | undefined;
}

/** The `struct rtnexthop` entries of an RTA_MULTIPATH attribute, each with its own attributes. */
export function nexthops(v: DataView): Nexthop[] {
  const out: Nexthop[] = [];
  for (let at = 0; at + 8 <= v.byteLength; ) {
    const len = v.getUint16(at, true);
    if (len < 8 || at + len > v.byteLength) break;
    const a = attrs(new DataView(v.buffer, v.byteOffset + at, len), 8);
    out.push({ gw: a.get(K.RTA_GATEWAY), oif: v.getInt32(at + 4, true) });
    at += (len + 3) & ~3;
  }
  return out;
}
