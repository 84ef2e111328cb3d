/**
 * RTM_GETQDISC dump replies decoded into the port's {@link QdiscInfo} list, what the
 * reference's netlink.QdiscList gives its CHECK: kind, handle, parent, and a tbf's rate,
 * limit and buffer. Pure.
 */
import type { QdiscInfo } from "../ops-tc.ts";
import * as T from "./constants-tc.ts";
import { attrs, attrStr } from "./wire.ts";

/** The qdiscs of interface `ifindex` (named `dev`) among the replies, in dump order. */
export function decodeQdiscs(payloads: readonly DataView[], ifindex: number, dev: string): QdiscInfo[] {
  const out: QdiscInfo[] = [];
  for (const p of payloads) {
    if (p.byteLength < T.TCMSG_LEN || p.getInt32(4, true) !== ifindex) continue;
    const a = attrs(p, T.TCMSG_LEN);
    const q: QdiscInfo = {
      dev,
      kind: attrStr(a.get(T.TCA_KIND)) ?? "",
      handle: p.getUint32(8, true),
      parent: p.getUint32(12, true),
    };
    const options = a.get(T.TCA_OPTIONS);
    if (q.kind === "tbf" && options !== undefined) {
      const o = attrs(options);
      const parms = o.get(T.TCA_TBF_PARMS);
      const rate64 = o.get(T.TCA_TBF_RATE64);
      if (parms !== undefined && parms.byteLength >= T.TC_TBF_QOPT_LEN) {
        const rate =
          rate64 !== undefined && rate64.byteLength >= 8
            ? Number(rate64.getBigUint64(0, true))
            : parms.getUint32(8, true);
        q.tbf = { rate, limit: parms.getUint32(24, true), buffer: parms.getUint32(28, true) };
      }
    }
    out.push(q);
  }
  return out;
}
