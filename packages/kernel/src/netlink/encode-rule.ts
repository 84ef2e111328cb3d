/**
 * `rule.add` / `rule.del` and `vrf.add` as the rtnetlink requests iproute2 sends for
 * `ip rule add|del ...` and `ip link add NAME type vrf table N` (golden fixtures:
 * fixtures/rule-requests.json, captured by fixtures/capture-rules.ts). Pure.
 */
import type { RuleOp } from "../rule.ts";
import { ruleFamily } from "../rule.ts";
import type { VrfAdd } from "../vrf.ts";
import * as K from "./constants.ts";
import * as R from "./rule-constants.ts";
import { cidrBytes } from "./text.ts";
import { MessageBuilder } from "./wire.ts";
import { Refused } from "./encode.ts";

const REQ = K.NLM_F_REQUEST | K.NLM_F_ACK;

function prefix(text: string, family: 4 | 6) {
  const c = cidrBytes(text);
  if (c === undefined || c.family !== family)
    throw new Refused(`Error: ${family === 4 ? "inet" : "inet6"} prefix is expected rather than "${text}".`);
  return c;
}

/** The request of a rule op: a `struct fib_rule_hdr` and the selectors given, as iproute2 6.1 builds it. */
export function encodeRule(op: RuleOp): MessageBuilder {
  const add = op.op === "rule.add";
  const family = ruleFamily(op);
  const from = op.from === undefined ? undefined : prefix(op.from, family);
  const to = op.to === undefined ? undefined : prefix(op.to, family);
  const table = op.table ?? 0;
  const m = new MessageBuilder(
    add ? R.RTM_NEWRULE : R.RTM_DELRULE,
    add ? REQ | K.NLM_F_CREATE | K.NLM_F_EXCL : REQ,
  ).fixed(R.FIB_RULE_HDR_LEN, (v, at) => {
    v.setUint8(at, family === 4 ? K.AF_INET : K.AF_INET6);
    v.setUint8(at + 1, to?.prefix ?? 0);
    v.setUint8(at + 2, from?.prefix ?? 0);
    v.setUint8(at + 4, table < 256 ? table : 0);
    // iproute2 names the action only when adding (`lookup` is its default there).
    v.setUint8(at + 7, add ? R.FR_ACT_TO_TBL : 0);
  });
  if (op.priority !== undefined) m.u32(R.FRA_PRIORITY, op.priority);
  if (from !== undefined) m.bytes(R.FRA_SRC, from.bytes);
  if (to !== undefined) m.bytes(R.FRA_DST, to.bytes);
  if (op.iif !== undefined) m.str(R.FRA_IIFNAME, op.iif);
  if (op.oif !== undefined) m.str(R.FRA_OIFNAME, op.oif);
  if (table >= 256) m.u32(R.FRA_TABLE, table);
  return m;
}

/** The RTM_NEWLINK of a VRF device: kind `vrf` with IFLA_VRF_TABLE. */
export function encodeVrf(op: VrfAdd): MessageBuilder {
  const m = new MessageBuilder(K.RTM_NEWLINK, REQ | K.NLM_F_CREATE | K.NLM_F_EXCL).fixed(16, () => {});
  m.str(K.IFLA_IFNAME, op.name);
  return m
    .nest(K.IFLA_LINKINFO)
    .str(K.IFLA_INFO_KIND, "vrf")
    .nest(K.IFLA_INFO_DATA)
    .u32(R.IFLA_VRF_TABLE, op.table)
    .end()
    .end();
}
