/**
 * sbr's CHECK (CHK-3). [DIFF] The reference's cmdCheck returns nil whatever the state;
 * ours fails when what ADD made is gone: each address of the interface needs a rule
 * `from <address>` (into the configured `table` when there is one), and without a
 * configured table that rule's table must still route through the interface.
 */
import type { Kernel } from "@tscni/kernel";
import type { IPConfig100 } from "@tscni/spec";
import { parsePrefix } from "@tscni/spec/ipnet";
import { hostPrefix } from "./plan.ts";

/** Throws the first missing piece. */
export async function checkSbr(
  kernel: Kernel,
  ns: string,
  ifName: string,
  ips: readonly IPConfig100[],
  table: number | undefined,
): Promise<void> {
  const rules = await kernel.rules(ns);
  for (const c of ips) {
    const net = parsePrefix(c.address);
    if (net === undefined) continue;
    const from = hostPrefix(net.ip);
    const rule = rules.find((r) => r.from === from && (table === undefined || r.table === table));
    if (rule === undefined)
      throw new Error(`sbr: no rule for source ${from}${table === undefined ? "" : ` into table ${table}`}`);
    if (table !== undefined) continue;
    const routes = await kernel.routes(ns, net.ip.family, rule.table);
    if (!routes.some((r) => r.dev === ifName))
      throw new Error(`sbr: table ${rule.table} of source ${from} has no route through ${ifName}`);
  }
}
