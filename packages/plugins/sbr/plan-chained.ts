/**
 * sbr in `cni plan`: its ADD on the interface plugin's planned result. With `table` the
 * plan is only the rules selecting that table by each address of the interface. Without
 * it, sbr moves the interface's routes as the kernel will hold them after the interface
 * plugin's ADD (connected routes included: shared/planned-link.ts derives them from the
 * planned ops) into the tables from 100 that no rule names, the rules read from the
 * namespace now (as the interface plugins' plans read it) plus those already planned.
 */
import type { Kernel, KernelOp, RuleInfo } from "@tscni/kernel";
import { ruleFamily } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { plannedLink } from "../shared/planned-link.ts";
import { opsOf } from "../shared/steps.ts";
import { ipConfigsOf, parseSbrConfig, staticGateways } from "./config.ts";
import { planRoutes, planWithTable } from "./plan.ts";

/** What ADD would do with `prev` as the interface plugin's result and `ops` planned before it. Applies nothing. */
export async function planChained(
  a: CmdArgs,
  prev: Result100,
  ops: readonly KernelOp[],
  ports: { kernel: Kernel },
): Promise<{ firewall: []; notes: string[]; ops: KernelOp[] }> {
  const conf = parseSbrConfig({ ...a.config, prevResult: undefined });
  const ips = ipConfigsOf(prev, a.ifName);
  if (conf.table !== undefined)
    return { firewall: [], notes: [], ops: opsOf(planWithTable(a.netns, ips, conf.table).steps) };
  const k = ports.kernel;
  const planned: RuleInfo[] = ops.flatMap((o) =>
    o.op === "rule.add" && o.ns === a.netns && o.table !== undefined
      ? [{ family: ruleFamily(o), priority: o.priority ?? 0, table: o.table }]
      : [],
  );
  const rules = [...(await k.rules(a.netns)), ...planned];
  const link = plannedLink(
    ops,
    a.netns,
    a.ifName,
    (await k.sysctl(a.netns, "net.ipv6.conf.default.disable_ipv6")) === "0",
  );
  if (!link.exists) throw new Error(`Cannot find network interface ${a.ifName}: Link not found`);
  const p = planRoutes(
    a.netns,
    a.ifName,
    ips,
    { rules, linkRoutes: link.routes },
    staticGateways(conf.gateways),
    conf.addSourceHints,
  );
  // The hints run after the batch, each on its own (index.ts): after it in the plan too.
  return { firewall: [], notes: [], ops: [...opsOf(p.steps), ...p.hints] };
}
