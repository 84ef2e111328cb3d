/**
 * Deleting conntrack entries over ctnetlink (NETLINK_NETFILTER), as the reference's
 * `utils.DeleteConntrackEntriesForDstPort` does through vishvananda/netlink: dump the
 * table of one family, and delete each entry whose original tuple has the protocol and
 * destination port asked for, by echoing that tuple back. No `conntrack` process (§8.5
 * ADD 3). Runs in the plugin's own namespace, the host (P-1).
 */
import { libc } from "../libc.ts";
import { within } from "../netns.ts";
import { NetlinkError, NetlinkSocket } from "./socket.ts";
import { MessageBuilder, attrs, attrBytes } from "./wire.ts";

const NETLINK_NETFILTER = 12;
const NFNL_SUBSYS_CTNETLINK = 1;
const IPCTNL_MSG_CT_GET = 1;
const IPCTNL_MSG_CT_DELETE = 2;
const CTA_TUPLE_ORIG = 1;
const CTA_TUPLE_PROTO = 2;
const CTA_PROTO_NUM = 1;
const CTA_PROTO_DST_PORT = 3;
const NLA_F_NESTED = 0x8000;
const NLM_F_REQUEST = 0x1;
const NLM_F_ACK = 0x4;
const NLM_F_DUMP = 0x300;
const ENOENT = 2;
const AF_INET = 2;
const AF_INET6 = 10;

/** IANA protocol numbers the port filter takes. */
export const IPPROTO = { tcp: 6, udp: 17, sctp: 132 } as const;

/** A ctnetlink message: the nfgenmsg header (family, version 0, resource id 0). */
function ctMessage(type: number, flags: number, family: number): MessageBuilder {
  return new MessageBuilder((NFNL_SUBSYS_CTNETLINK << 8) | type, flags).fixed(4, (v, at) => v.setUint8(at, family));
}

/** The original tuple of a dumped entry when it matches protocol and destination port. */
export function matchingTuple(entry: DataView, proto: number, dport: number): Uint8Array | undefined {
  const orig = attrs(entry, 4).get(CTA_TUPLE_ORIG);
  if (orig === undefined) return undefined;
  const p = attrs(orig).get(CTA_TUPLE_PROTO);
  if (p === undefined) return undefined;
  const pa = attrs(p);
  const num = pa.get(CTA_PROTO_NUM);
  const port = pa.get(CTA_PROTO_DST_PORT);
  if (num === undefined || port === undefined || num.byteLength < 1 || port.byteLength < 2) return undefined;
  // Ports travel in network byte order.
  if (num.getUint8(0) !== proto || port.getUint16(0, false) !== dport) return undefined;
  return attrBytes(orig).slice();
}

/**
 * Deletes the conntrack entries of `family` whose original destination port is `dport`
 * for protocol `proto`; returns how many it deleted. An entry that expires between the
 * dump and its deletion is not an error. `ns` (a netns path) opens the socket there
 * instead of in the calling thread's namespace; the socket stays bound to it.
 */
export async function deleteConntrackByDstPort(
  family: 4 | 6,
  proto: number,
  dport: number,
  ns?: string,
): Promise<number> {
  const c = await libc();
  const af = family === 6 ? AF_INET6 : AF_INET;
  const s = within(c, ns, () => NetlinkSocket.open(c, NETLINK_NETFILTER));
  try {
    const entries = s.request(ctMessage(IPCTNL_MSG_CT_GET, NLM_F_REQUEST | NLM_F_DUMP, af));
    let deleted = 0;
    for (const e of entries) {
      const tuple = matchingTuple(e, proto, dport);
      if (tuple === undefined) continue;
      try {
        s.request(
          ctMessage(IPCTNL_MSG_CT_DELETE, NLM_F_REQUEST | NLM_F_ACK, af).bytes(CTA_TUPLE_ORIG | NLA_F_NESTED, tuple),
        );
        deleted++;
      } catch (err) {
        if (!(err instanceof NetlinkError && err.errno === ENOENT)) throw err;
      }
    }
    return deleted;
  } finally {
    s.close();
  }
}
