/**
 * sbr's DEL (the reference's `tidyRules`): the rules whose source is one of the
 * interface's addresses go (only those of `table` when the config names one). Best
 * effort: every such rule is tried, the last failure is returned (`Failed to delete rule
 * %v`); an interface that is gone means nothing to do (DEL-2, DEL-3).
 */
import type { Kernel, RuleInfo } from "@tscni/kernel";
import { goErrorText } from "../shared/go-errors.ts";

/** The deletion of exactly this rule (its priority, source and table). */
function ruleGone(ns: string, r: RuleInfo) {
  return {
    op: "rule.del" as const,
    ns,
    priority: r.priority,
    table: r.table,
    ...(r.from !== undefined && { from: r.from }),
    ...(r.to !== undefined && { to: r.to }),
    ...(r.to === undefined && r.from === undefined && { family: r.family }),
  };
}

/** Deletes `ifName`'s source rules in `ns`. */
export async function tidyRules(kernel: Kernel, ns: string, ifName: string, table: number | undefined): Promise<void> {
  const all = await kernel.rules(ns).catch((e: unknown) => {
    throw new Error(
      table === undefined
        ? `Failed to list all rules to tidy: ${goErrorText(e)}`
        : `failed to list rules of table ${table} to tidy: ${goErrorText(e)}`,
    );
  });
  const rules = table === undefined ? all : all.filter((r) => r.table === table);
  if ((await kernel.link(ns, ifName)) === undefined) return;
  const addrs = new Set((await kernel.addresses(ns, ifName)).map((a) => a.cidr.split("/")[0]));
  let failure: string | undefined;
  for (const r of rules) {
    if (r.from === undefined || !addrs.has(r.from.split("/")[0])) continue;
    try {
      await kernel.apply([ruleGone(ns, r)]);
    } catch (e) {
      failure = `Failed to delete rule ${goErrorText(e)}`;
    }
  }
  if (failure !== undefined) throw new Error(failure);
}
