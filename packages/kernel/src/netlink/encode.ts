/**
 * Each {@link KernelOp} as the rtnetlink request iproute2 sends for its line (lines.ts):
 * the same message type, flags, header fields and attributes, so the kernel does the
 * same thing either way. Names are resolved to indexes by the caller's `index`, which
 * refuses an unknown name as `ip` does. Pure but for that callback.
 */
import type { KernelErrorKind } from "../kernel.ts";
import type { KernelOp, Netns, RouteOp } from "../ops.ts";
import * as K from "./constants.ts";
import { cidrBytes, ipBytes, macBytes } from "./text.ts";
import { encodeTcOp } from "./encode-tc.ts";
import { MessageBuilder } from "./wire.ts";
import { encodeRule, encodeVrf } from "./encode-rule.ts";
import { NLM_F_REPLACE } from "./rule-constants.ts";
import { encodeDummy, encodeIpvlan, encodeMacvlan, encodeVlanInto } from "./encode-sublinks.ts";

/**
 * A refusal iproute2 prints before sending anything; `text` is what it prints, `kind` what
 * it means (a bad argument unless said otherwise), so no caller parses the text.
 */
export class Refused extends Error {
  readonly text: string;
  readonly kind: KernelErrorKind;
  constructor(text: string, kind: KernelErrorKind = "invalid") {
    super(text);
    this.name = "Refused";
    this.text = text;
    this.kind = kind;
  }
}

/** What encoding needs from the namespace the op runs in. */
export interface EncodeContext {
  /** The index of a link by name in the op's namespace; throws {@link Refused} when there is none. */
  index(name: string): number;
  /** An open fd of a namespace, for IFLA_NET_NS_FD. */
  nsFd(ns: Netns): number;
}

const REQ = K.NLM_F_REQUEST | K.NLM_F_ACK;
const CREATE = REQ | K.NLM_F_CREATE | K.NLM_F_EXCL;
/** What `ip route prepend` (and netlink's RouteAddEcmp) sends: create beside an existing route (ECMP). */
const PREPEND = REQ | K.NLM_F_CREATE;

/** `struct ifinfomsg`. */
function ifinfo(m: MessageBuilder, family: number, index: number, flags = 0, change = 0): MessageBuilder {
  return m.fixed(16, (v, at) => {
    v.setUint8(at, family);
    v.setInt32(at + 4, index, true);
    v.setUint32(at + 8, flags, true);
    v.setUint32(at + 12, change, true);
  });
}

/** iproute2's check_ifname for a name it is asked to create. */
function newName(name: string, what: string): string {
  if (name === "" || new TextEncoder().encode(name).length >= 16 || /[/\s]/.test(name)) {
    throw new Refused(`Error: argument "${name}" is wrong: "${what}" not a valid ifname`);
  }
  return name;
}

function mac(text: string): Uint8Array {
  const b = macBytes(text);
  if (b === undefined) throw new Refused(`"${text}" is invalid lladdr.`);
  return b;
}

function linkAttrs(m: MessageBuilder, a: { mtu?: number | undefined; mac?: string | undefined }): void {
  if (a.mtu !== undefined) m.u32(K.IFLA_MTU, a.mtu);
  if (a.mac !== undefined) m.bytes(K.IFLA_ADDRESS, mac(a.mac));
}

const SCOPES: Readonly<Record<string, number>> = {
  global: K.RT_SCOPE_UNIVERSE,
  link: K.RT_SCOPE_LINK,
  host: K.RT_SCOPE_HOST,
};

function prefix(text: string) {
  const c = cidrBytes(text);
  if (c === undefined) throw new Refused(`Error: any valid prefix is expected rather than "${text}".`);
  return c;
}

function address(text: string, family: 4 | 6) {
  const ip = ipBytes(text);
  if (ip === undefined || ip.family !== family)
    throw new Refused(`Error: ${family === 4 ? "inet" : "inet6"} address is expected rather than "${text}".`);
  return ip.bytes;
}

function route(op: RouteOp, ctx: EncodeContext): MessageBuilder {
  const add = op.op === "route.add";
  const dst = prefix(op.dst);
  const af = dst.family === 4 ? K.AF_INET : K.AF_INET6;
  // iproute2's defaults: an added route is boot/unicast, scope link without a gateway
  // (IPv4); a deleted one matches any scope (NOWHERE), IPv6 always universe.
  const scope =
    op.scope !== undefined
      ? (SCOPES[op.scope] ?? 0)
      : dst.family === 6
        ? K.RT_SCOPE_UNIVERSE
        : !add
          ? K.RT_SCOPE_NOWHERE
          : op.gw === undefined
            ? K.RT_SCOPE_LINK
            : K.RT_SCOPE_UNIVERSE;
  const table = op.table ?? K.RT_TABLE_MAIN;
  const gw = op.gw === undefined ? undefined : address(op.gw, dst.family);
  const src = op.src === undefined ? undefined : address(op.src, dst.family);
  const oif = op.dev === undefined ? undefined : ctx.index(op.dev);
  const flags = !add
    ? REQ
    : op.prepend === true
      ? PREPEND
      : op.replace === true
        ? REQ | K.NLM_F_CREATE | NLM_F_REPLACE
        : CREATE;
  const protocol = op.protocol === "kernel" ? 2 : op.protocol === "static" ? 4 : K.RTPROT_BOOT;
  const m = new MessageBuilder(add ? K.RTM_NEWROUTE : K.RTM_DELROUTE, flags).fixed(12, (v, at) => {
    v.setUint8(at, af);
    v.setUint8(at + 1, dst.prefix);
    v.setUint8(at + 4, table < 256 ? table : K.RT_TABLE_UNSPEC);
    v.setUint8(at + 5, add ? protocol : 0);
    v.setUint8(at + 6, scope);
    v.setUint8(at + 7, add ? K.RTN_UNICAST : 0);
    v.setUint32(at + 8, op.onlink === true ? K.RTNH_F_ONLINK : 0, true);
  });
  if (dst.prefix > 0) m.bytes(K.RTA_DST, dst.bytes);
  if (table >= 256) m.u32(K.RTA_TABLE, table);
  if (gw !== undefined) m.bytes(K.RTA_GATEWAY, gw);
  if (oif !== undefined) m.u32(K.RTA_OIF, oif);
  if (src !== undefined) m.bytes(K.RTA_PREFSRC, src);
  if (op.metric !== undefined) m.u32(K.RTA_PRIORITY, op.metric);
  if (op.mtu !== undefined || op.advmss !== undefined) {
    m.nest(K.RTA_METRICS);
    if (op.mtu !== undefined) m.u32(K.RTAX_MTU, op.mtu);
    if (op.advmss !== undefined) m.u32(K.RTAX_ADVMSS, op.advmss);
    m.end();
  }
  return m;
}

/** The request for one operation (not `sysctl.set`, which is a file write). */
export function encodeOp(op: Exclude<KernelOp, { op: "sysctl.set" }>, ctx: EncodeContext): MessageBuilder {
  switch (op.op) {
    case "veth.add": {
      const m = ifinfo(new MessageBuilder(K.RTM_NEWLINK, CREATE), K.AF_UNSPEC, 0).str(
        K.IFLA_IFNAME,
        newName(op.name, "name"),
      );
      linkAttrs(m, op);
      m.nest(K.IFLA_LINKINFO).str(K.IFLA_INFO_KIND, "veth").nest(K.IFLA_INFO_DATA).nest(K.VETH_INFO_PEER);
      ifinfo(m, K.AF_UNSPEC, 0).str(K.IFLA_IFNAME, newName(op.peer.name, "name"));
      linkAttrs(m, op.peer);
      if (op.peer.ns !== op.ns) m.u32(K.IFLA_NET_NS_FD, ctx.nsFd(op.peer.ns));
      return m.end().end().end();
    }
    case "bridge.add": {
      const m = ifinfo(new MessageBuilder(K.RTM_NEWLINK, CREATE), K.AF_UNSPEC, 0).str(
        K.IFLA_IFNAME,
        newName(op.name, "name"),
      );
      linkAttrs(m, op);
      m.nest(K.IFLA_LINKINFO).str(K.IFLA_INFO_KIND, "bridge");
      if (op.vlanFiltering !== undefined || op.defaultPvid !== undefined) {
        m.nest(K.IFLA_INFO_DATA);
        if (op.vlanFiltering !== undefined) m.u8(K.IFLA_BR_VLAN_FILTERING, op.vlanFiltering ? 1 : 0);
        if (op.defaultPvid !== undefined) m.u16(K.IFLA_BR_VLAN_DEFAULT_PVID, op.defaultPvid);
        m.end();
      }
      return m.end();
    }
    case "vlan.add": {
      if (op.mtu !== undefined || op.into !== undefined) return encodeVlanInto(op, ctx);
      const name = newName(op.name, "name");
      const m = ifinfo(new MessageBuilder(K.RTM_NEWLINK, CREATE), K.AF_UNSPEC, 0)
        .u32(K.IFLA_LINK, ctx.index(op.parent))
        .str(K.IFLA_IFNAME, name);
      return m
        .nest(K.IFLA_LINKINFO)
        .str(K.IFLA_INFO_KIND, "vlan")
        .nest(K.IFLA_INFO_DATA)
        .u16(K.IFLA_VLAN_ID, op.id)
        .end()
        .end();
    }
    case "tap.add":
      // No rtnetlink request makes a tap: the driver uses /dev/net/tun (tuntap.ts).
      throw new Refused("tun/tap creation via rtnetlink is not supported");
    case "link.set": {
      // The master is resolved while `ip` parses its arguments, so before the device and
      // before anything is sent (a missing one changes nothing).
      const master = op.master === undefined ? undefined : op.master === null ? 0 : masterIndex(op.master, ctx);
      const index = ctx.index(op.name);
      let flags = 0;
      let change = 0;
      if (op.up !== undefined) {
        change |= K.IFF_UP;
        if (op.up) flags |= K.IFF_UP;
      }
      if (op.promisc !== undefined) {
        change |= K.IFF_PROMISC;
        if (op.promisc) flags |= K.IFF_PROMISC;
      }
      if (op.allmulti !== undefined) {
        change |= K.IFF_ALLMULTI;
        if (op.allmulti) flags |= K.IFF_ALLMULTI;
      }
      const m = ifinfo(new MessageBuilder(K.RTM_NEWLINK, REQ), K.AF_UNSPEC, index, flags, change);
      linkAttrs(m, op);
      if (master !== undefined) m.u32(K.IFLA_MASTER, master);
      if (op.newName !== undefined) m.str(K.IFLA_IFNAME, newName(op.newName, "name"));
      if (op.txQLen !== undefined) m.u32(K.IFLA_TXQLEN, op.txQLen);
      // Without a NUL, as iproute2 and Go netlink send it: an empty one clears the alias.
      if (op.alias !== undefined) m.bytes(K.IFLA_IFALIAS, new TextEncoder().encode(op.alias));
      return m;
    }
    case "bridge-port.set": {
      const m = ifinfo(new MessageBuilder(K.RTM_NEWLINK, REQ), K.AF_UNSPEC, ctx.index(op.name));
      m.nest(K.IFLA_LINKINFO).str(K.IFLA_INFO_SLAVE_KIND, "bridge");
      // Like iproute2, which nests port data only when options follow `type bridge_slave`:
      // with no flag to set, the kernel then accepts the message on any link (no-op).
      if (op.hairpin === undefined && op.isolated === undefined) return m.end();
      m.nest(K.IFLA_INFO_SLAVE_DATA);
      if (op.hairpin !== undefined) m.u8(K.IFLA_BRPORT_MODE, op.hairpin ? 1 : 0);
      if (op.isolated !== undefined) m.u8(K.IFLA_BRPORT_ISOLATED, op.isolated ? 1 : 0);
      return m.end().end();
    }
    case "bridge-vlan.add":
    case "bridge-vlan.del": {
      let index: number;
      try {
        index = ctx.index(op.dev);
      } catch (e) {
        if (e instanceof Refused) throw new Refused(`Cannot find bridge device "${op.dev}"`, "not-found");
        throw e;
      }
      const m = ifinfo(
        new MessageBuilder(op.op === "bridge-vlan.add" ? K.RTM_SETLINK : K.RTM_DELLINK, REQ),
        K.AF_BRIDGE,
        index,
      );
      m.nest(K.IFLA_AF_SPEC);
      if (op.self === true) m.u16(K.IFLA_BRIDGE_FLAGS, K.BRIDGE_FLAGS_SELF);
      const flags =
        (op.pvid === true ? K.BRIDGE_VLAN_INFO_PVID : 0) | (op.untagged === true ? K.BRIDGE_VLAN_INFO_UNTAGGED : 0);
      const info = new Uint8Array(4);
      new DataView(info.buffer).setUint16(0, flags, true);
      new DataView(info.buffer).setUint16(2, op.vid, true);
      return m.bytes(K.IFLA_BRIDGE_VLAN_INFO, info).end();
    }
    case "link.move":
      return ifinfo(new MessageBuilder(K.RTM_NEWLINK, REQ), K.AF_UNSPEC, ctx.index(op.name)).u32(
        K.IFLA_NET_NS_FD,
        ctx.nsFd(op.to),
      );
    case "link.del":
      return ifinfo(new MessageBuilder(K.RTM_DELLINK, REQ), K.AF_UNSPEC, ctx.index(op.name));
    case "addr.add":
    case "addr.del": {
      const add = op.op === "addr.add";
      const c = prefix(op.cidr);
      // Read before the device, as `ip` reads every argument before it looks the device up.
      const brd = add && op.broadcast !== undefined ? address(op.broadcast, c.family) : undefined;
      const index = ctx.index(op.dev);
      let flags = 0;
      if (add && op.nodad === true) flags |= K.IFA_F_NODAD;
      if (add && op.noprefixroute === true) flags |= K.IFA_F_NOPREFIXROUTE;
      // iproute2's default_scope: host for 127/8, else global; a delete leaves it 0.
      const scope =
        op.scope !== undefined
          ? (SCOPES[op.scope] ?? 0)
          : add && c.family === 4 && c.bytes[0] === 127
            ? K.RT_SCOPE_HOST
            : 0;
      const m = new MessageBuilder(add ? K.RTM_NEWADDR : K.RTM_DELADDR, add ? CREATE : REQ).fixed(8, (v, at) => {
        v.setUint8(at, c.family === 4 ? K.AF_INET : K.AF_INET6);
        v.setUint8(at + 1, c.prefix);
        v.setUint8(at + 2, flags <= 0xff ? flags : 0);
        v.setUint8(at + 3, scope);
        v.setUint32(at + 4, index, true);
      });
      m.bytes(K.IFA_LOCAL, c.bytes).bytes(K.IFA_ADDRESS, c.bytes);
      if (flags > 0xff) m.u32(K.IFA_FLAGS, flags);
      if (brd !== undefined) m.bytes(K.IFA_BROADCAST, brd);
      return m;
    }
    case "route.add":
    case "route.del":
      return route(op, ctx);
    case "rule.add":
    case "rule.del":
      return encodeRule(op);
    case "vrf.add":
      return encodeVrf(op);
    case "macvlan.add":
      return encodeMacvlan(op, ctx);
    case "ipvlan.add":
      return encodeIpvlan(op, ctx);
    case "dummy.add":
      return encodeDummy(op, ctx);
    case "ifb.add":
    case "qdisc.add":
    case "qdisc.del":
    case "filter.add":
      return encodeTcOp(op, ctx);
  }
}

function masterIndex(name: string, ctx: EncodeContext): number {
  try {
    return ctx.index(name);
  } catch (e) {
    if (e instanceof Refused)
      throw new Refused(`Error: argument "${name}" is wrong: Device does not exist`, "not-found");
    throw e;
  }
}
