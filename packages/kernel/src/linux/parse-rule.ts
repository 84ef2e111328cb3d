/**
 * `ip -json -4|-6 rule show` parsed into {@link RuleInfo}s, as the netlink driver decodes
 * the same dump (netlink/decode-rule.ts): prefixes with their length, tables as numbers.
 */
import type { RuleInfo } from "../rule.ts";

const NAMED: Readonly<Record<string, number>> = { local: 255, main: 254, default: 253 };

type Row = {
  priority?: number;
  src?: string;
  srclen?: number;
  dst?: string;
  dstlen?: number;
  iif?: string;
  oif?: string;
  table?: string;
};

/** The rules of one family, in the order `ip` lists them. */
export function parseRules(text: string, family: 4 | 6): RuleInfo[] {
  const rows = text.trim() === "" ? [] : (JSON.parse(text) as Row[]);
  const full = family === 4 ? 32 : 128;
  return rows.map((r) => {
    const t = r.table ?? "0";
    const rule: RuleInfo = { family, priority: r.priority ?? 0, table: NAMED[t] ?? Number(t) };
    if (r.src !== undefined && r.src !== "all") rule.from = `${r.src}/${r.srclen ?? full}`;
    if (r.dst !== undefined && r.dst !== "all") rule.to = `${r.dst}/${r.dstlen ?? full}`;
    if (r.iif !== undefined) rule.iif = r.iif;
    if (r.oif !== undefined) rule.oif = r.oif;
    return rule;
  });
}
