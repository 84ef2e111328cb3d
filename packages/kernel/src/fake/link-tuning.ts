/**
 * The link attributes the tuning plugin changes besides MTU, MAC and promisc: the
 * all-multicast flag and the transmit queue length (`link.set` `allmulti`, `txQLen`).
 * Linux gives every link kind this model has a queue length of 1000 (`tx_queue_len`
 * default, DEFAULT_TX_QUEUE_LEN; a vlan link 0, as vlan_setup sets it) and IFF_ALLMULTI off until the user sets it.
 */
import type { LinkInfo, LinkSet } from "../index.ts";
import type { Link } from "./state.ts";

/** DEFAULT_TX_QUEUE_LEN: what `ip link` shows as `qlen 1000` on a fresh veth, bridge or lo. */
export const DEFAULT_TXQLEN = 1000;

/** Applies `allmulti` and `txQLen` of a `link.set`, the fields given only. */
export function setTuning(link: Link, op: LinkSet): void {
  if (op.allmulti !== undefined) link.allmulti = op.allmulti;
  if (op.txQLen !== undefined) link.txQLen = op.txQLen;
}

/** The fields of a link's LinkInfo this file models. */
export function tuningInfo(link: Link): Pick<LinkInfo, "allmulti" | "txQLen"> {
  return {
    ...(link.allmulti === true && { allmulti: true }),
    txQLen: link.txQLen ?? (link.kind === "vlan" ? 0 : DEFAULT_TXQLEN),
  };
}
