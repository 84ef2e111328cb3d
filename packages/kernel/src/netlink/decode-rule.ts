/**
 * RTM_GETRULE dump replies decoded into {@link RuleInfo}s, as `ip -json rule show` lists
 * them (linux/parse-rule.ts reads that JSON for the iproute2 driver). Pure.
 */
import type { RuleInfo } from "../rule.ts";
import * as K from "./constants.ts";
import * as R from "./rule-constants.ts";
import { ipText } from "./text.ts";
import { attrBytes, attrs, attrStr, attrU, MessageBuilder } from "./wire.ts";

/** The dump request of one family's rules. */
export function ruleDump(family: 4 | 6): MessageBuilder {
  return new MessageBuilder(R.RTM_GETRULE, K.NLM_F_REQUEST | K.NLM_F_DUMP).fixed(R.FIB_RULE_HDR_LEN, (v, at) =>
    v.setUint8(at, family === 4 ? K.AF_INET : K.AF_INET6),
  );
}

/** Decodes the rules of one family from its dump, in the kernel's (priority) order. */
export function decodeRules(payloads: readonly DataView[], family: 4 | 6): RuleInfo[] {
  const out: RuleInfo[] = [];
  for (const p of payloads) {
    if (p.getUint8(0) !== (family === 4 ? K.AF_INET : K.AF_INET6)) continue;
    const a = attrs(p, R.FIB_RULE_HDR_LEN);
    const rule: RuleInfo = {
      family,
      priority: attrU(a.get(R.FRA_PRIORITY)) ?? 0,
      table: attrU(a.get(R.FRA_TABLE)) ?? p.getUint8(4),
    };
    const src = a.get(R.FRA_SRC);
    if (src !== undefined) rule.from = `${ipText(attrBytes(src))}/${p.getUint8(2)}`;
    const dst = a.get(R.FRA_DST);
    if (dst !== undefined) rule.to = `${ipText(attrBytes(dst))}/${p.getUint8(1)}`;
    const iif = attrStr(a.get(R.FRA_IIFNAME));
    if (iif !== undefined) rule.iif = iif;
    const oif = attrStr(a.get(R.FRA_OIFNAME));
    if (oif !== undefined) rule.oif = oif;
    out.push(rule);
  }
  return out;
}
