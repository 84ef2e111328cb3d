/**
 * sbr in `cni plan`: its ADD on the interface plugin's planned result. With `table` the
 * plan is only the rules selecting that table by each address of the interface; without
 * it sbr moves the interface's routes as the kernel holds them after the interface
 * plugin's ADD (connected routes included), which a plan cannot read: not planned then.
 */
import type { KernelOp } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { opsOf } from "../shared/steps.ts";
import { ipConfigsOf, parseSbrConfig } from "./config.ts";
import { planWithTable } from "./plan.ts";

/** What ADD would do with `prev` as the interface plugin's result. Applies nothing; reads nothing. */
export async function planChained(
  a: CmdArgs,
  prev: Result100,
): Promise<{ firewall: []; notes: string[]; ops: KernelOp[] }> {
  const conf = parseSbrConfig({ ...a.config, prevResult: undefined });
  if (conf.table === undefined)
    return {
      firewall: [],
      notes: ['sbr: not planned (without "table" it moves the interface\'s routes as the kernel holds them after ADD)'],
      ops: [],
    };
  return { firewall: [], notes: [], ops: opsOf(planWithTable(a.netns, ipConfigsOf(prev, a.ifName), conf.table).steps) };
}
