/**
 * The qdisc read of the netlink driver: one RTM_GETQDISC dump, kept to one link's
 * qdiscs (the reference's netlink.QdiscList filters the same dump by index).
 */
import { KernelError } from "../kernel.ts";
import type { QdiscInfo } from "../ops-tc.ts";
import * as K from "./constants.ts";
import * as T from "./constants-tc.ts";
import { decodeQdiscs } from "./decode-tc.ts";
import type { NetlinkSocket } from "./socket.ts";
import { MessageBuilder } from "./wire.ts";

/** The qdiscs of link `index` (named `dev`); KernelError `not-found` when the link is missing. */
export function readQdiscs(socket: NetlinkSocket, index: number | undefined, dev: string): QdiscInfo[] {
  if (index === undefined) throw new KernelError("not-found", `Cannot find device "${dev}"`);
  const dump = new MessageBuilder(T.RTM_GETQDISC, K.NLM_F_REQUEST | K.NLM_F_DUMP).fixed(T.TCMSG_LEN, (v, at) =>
    v.setInt32(at + 4, index, true),
  );
  return decodeQdiscs(socket.request(dump, T.RTM_NEWQDISC), index, dev);
}
