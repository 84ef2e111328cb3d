/**
 * RTM_NEWLINK requests of the sub-link kinds (ops-sublinks.ts) and of a vlan with an MTU or
 * a target namespace, as iproute2 sends them for the lines of lines-sublinks.ts (golden:
 * fixtures/iproute2-sublinks.json). The lower device is IFLA_LINK; a target namespace is
 * IFLA_NET_NS_FD, so the link is born there (the reference's LinkAttrs.Namespace). Pure
 * but for the context's look-ups.
 */
import type { DummyAdd, IpvlanAdd, MacvlanAdd } from "../ops-sublinks.ts";
import type { VlanAdd } from "../ops.ts";
import * as K from "./constants.ts";
import { type EncodeContext, Refused } from "./encode.ts";
import { macBytes } from "./text.ts";
import { MessageBuilder } from "./wire.ts";

/** `IFLA_MACVLAN_MODE` and the `MACVLAN_MODE_*` values. */
const IFLA_MACVLAN_MODE = 1;
const IFLA_MACVLAN_BC_QUEUE_LEN = 7;
const MACVLAN_MODES: Readonly<Record<MacvlanAdd["mode"], number>> = {
  private: 1,
  vepa: 2,
  bridge: 4,
  passthru: 8,
  source: 16,
};
/** `IFLA_IPVLAN_MODE`, `IFLA_IPVLAN_FLAGS` and their values. */
const IFLA_IPVLAN_MODE = 1;
const IFLA_IPVLAN_FLAGS = 2;
const IPVLAN_MODES: Readonly<Record<IpvlanAdd["mode"], number>> = { l2: 0, l3: 1, l3s: 2 };
const IPVLAN_FLAGS: Readonly<Record<NonNullable<IpvlanAdd["flag"]>, number>> = { bridge: 0, private: 1, vepa: 2 };

const CREATE = K.NLM_F_REQUEST | K.NLM_F_ACK | K.NLM_F_CREATE | K.NLM_F_EXCL;

function newName(name: string): string {
  if (name === "" || new TextEncoder().encode(name).length >= 16 || /[/\s]/.test(name)) {
    throw new Refused(`Error: argument "${name}" is wrong: "name" not a valid ifname`);
  }
  return name;
}

/** The head every kind shares: ifinfomsg, the lower device, name, MTU, MAC and target namespace. */
function head(
  op: {
    ns: string;
    name: string;
    parent?: string;
    mtu?: number | undefined;
    mac?: string | undefined;
    into?: string | undefined;
  },
  ctx: EncodeContext,
): MessageBuilder {
  // `ip` resolves `link DEV` while it parses, before it sends anything.
  const parent = op.parent === undefined ? undefined : ctx.index(op.parent);
  const m = new MessageBuilder(K.RTM_NEWLINK, CREATE).fixed(16, () => {});
  if (parent !== undefined) m.u32(K.IFLA_LINK, parent);
  m.str(K.IFLA_IFNAME, newName(op.name));
  if (op.mtu !== undefined) m.u32(K.IFLA_MTU, op.mtu);
  if (op.mac !== undefined) {
    const b = macBytes(op.mac);
    if (b === undefined) throw new Refused(`"${op.mac}" is invalid lladdr.`);
    m.bytes(K.IFLA_ADDRESS, b);
  }
  if (op.into !== undefined && op.into !== op.ns) m.u32(K.IFLA_NET_NS_FD, ctx.nsFd(op.into));
  return m;
}

/** `ip link add NAME link PARENT ... type macvlan mode MODE [bcqueuelen N]`. */
export function encodeMacvlan(op: MacvlanAdd, ctx: EncodeContext): MessageBuilder {
  const m = head(op, ctx)
    .nest(K.IFLA_LINKINFO)
    .str(K.IFLA_INFO_KIND, "macvlan")
    .nest(K.IFLA_INFO_DATA)
    .u32(IFLA_MACVLAN_MODE, MACVLAN_MODES[op.mode]);
  if (op.bcqueuelen !== undefined) m.u32(IFLA_MACVLAN_BC_QUEUE_LEN, op.bcqueuelen);
  return m.end().end();
}

/** `ip link add NAME link PARENT ... type ipvlan mode MODE [FLAG]`. */
export function encodeIpvlan(op: IpvlanAdd, ctx: EncodeContext): MessageBuilder {
  const m = head(op, ctx)
    .nest(K.IFLA_LINKINFO)
    .str(K.IFLA_INFO_KIND, "ipvlan")
    .nest(K.IFLA_INFO_DATA)
    .u16(IFLA_IPVLAN_MODE, IPVLAN_MODES[op.mode]);
  // iproute2 sends the flags always, `bridge` (0) unless told; so does the reference's netlink library.
  return m
    .u16(IFLA_IPVLAN_FLAGS, IPVLAN_FLAGS[op.flag ?? "bridge"])
    .end()
    .end();
}

/** `ip link add NAME ... type dummy`. */
export function encodeDummy(op: DummyAdd, ctx: EncodeContext): MessageBuilder {
  return head({ ...op, into: undefined }, ctx)
    .nest(K.IFLA_LINKINFO)
    .str(K.IFLA_INFO_KIND, "dummy")
    .end();
}

/** `ip link add NAME link PARENT [mtu M] [netns NS] type vlan id N`. */
export function encodeVlanInto(op: VlanAdd, ctx: EncodeContext): MessageBuilder {
  return head(op, ctx)
    .nest(K.IFLA_LINKINFO)
    .str(K.IFLA_INFO_KIND, "vlan")
    .nest(K.IFLA_INFO_DATA)
    .u16(K.IFLA_VLAN_ID, op.id)
    .end()
    .end();
}

/** The mode and flag names of a macvlan or ipvlan link's IFLA_INFO_DATA, for the decoder. */
export function sublinkModes(
  kind: string,
  data: Map<number, DataView>,
): { macvlanMode?: string; ipvlanMode?: string; ipvlanFlag?: string } {
  const u = (t: number, bytes: 2 | 4): number | undefined => {
    const v = data.get(t);
    if (v === undefined || v.byteLength < bytes) return undefined;
    return bytes === 2 ? v.getUint16(0, true) : v.getUint32(0, true);
  };
  const name = <T extends string>(table: Readonly<Record<T, number>>, n: number | undefined): T | undefined =>
    n === undefined ? undefined : (Object.keys(table) as T[]).find((k) => table[k] === n);
  if (kind === "macvlan") {
    const mode = name(MACVLAN_MODES, u(IFLA_MACVLAN_MODE, 4));
    return mode === undefined ? {} : { macvlanMode: mode };
  }
  if (kind === "ipvlan") {
    const mode = name(IPVLAN_MODES, u(IFLA_IPVLAN_MODE, 2));
    const flag = name(IPVLAN_FLAGS, u(IFLA_IPVLAN_FLAGS, 2) ?? 0);
    return { ...(mode !== undefined ? { ipvlanMode: mode } : {}), ...(flag !== undefined ? { ipvlanFlag: flag } : {}) };
  }
  return {};
}
