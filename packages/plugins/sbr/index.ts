/**
 * The sbr plugin (source-based routing, issue 12 item 3), chained only: ADD gives each
 * address of the interface a routing table of its own, selected by a rule on the
 * address (plan.ts), applied as one batch that rolls back when any step fails (ADD-6);
 * DEL deletes the rules whose source is an address of the interface (the reference's
 * `tidyRules`: the tables' routes go with the interface); CHECK verifies the rules (and
 * the tables' routes) are there (CHK-3). Every spec version (`version.All`); no GC or STATUS.
 */
import { KernelError, type Kernel } from "@tscni/kernel";
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { VERSIONS, type Result100 } from "@tscni/spec";
import { applyWithRollback } from "../shared/apply.ts";
import { goErrorText } from "../shared/go-errors.ts";
import { invalidConfig } from "../shared/netconf.ts";
import { ipConfigsOf, parseSbrConfig, staticGateways, type SbrConfig } from "./config.ts";
import { planRoutes, planWithTable, type SbrPlan } from "./plan.ts";
import { checkSbr } from "./check.ts";
import { tidyRules } from "./tidy.ts";

/** What sbr needs from the outside world. */
export interface SbrPorts {
  kernel: Kernel;
  /** Diagnostics that do not fail the command (stderr in the binary). */
  warn: (msg: string) => void;
}

/** The plan of an ADD, from a read of the namespace (only `doRoutes` reads it). */
async function plan(ports: SbrPorts, a: CmdArgs, conf: SbrConfig, prev: Result100): Promise<SbrPlan> {
  const ips = ipConfigsOf(prev, a.ifName);
  if (conf.table !== undefined) return planWithTable(a.netns, ips, conf.table);
  const k = ports.kernel;
  const rules = await k.rules(a.netns).catch((e: unknown) => {
    throw new Error(`Failed to list all rules: ${goErrorText(e)}`);
  });
  if ((await k.link(a.netns, a.ifName)) === undefined)
    throw new Error(`Cannot find network interface ${a.ifName}: Link not found`);
  const routes = await k.routes(a.netns).catch((e: unknown) => {
    throw new Error(`Unable to list routes: ${goErrorText(e)}`);
  });
  const gateways = staticGateways(conf.gateways);
  return planRoutes(
    a.netns,
    a.ifName,
    ips,
    { rules, linkRoutes: routes.filter((r) => r.dev === a.ifName) },
    gateways,
    conf.addSourceHints,
  );
}

async function add(ports: SbrPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseSbrConfig(a.config);
  // v1.1.1 (Debian) differs: code 999 for a plain error; SPEC §4.2 gives code 7 (invalid network config)
  if (conf.prevResult === undefined) throw invalidConfig("This plugin must be called as chained plugin");
  const p = await plan(ports, a, conf, conf.prevResult);
  try {
    await applyWithRollback(ports.kernel, p.steps, ports.warn);
  } catch (err) {
    const step = err instanceof KernelError && err.opIndex !== undefined ? p.steps[err.opIndex] : undefined;
    throw new Error(step === undefined ? goErrorText(err) : `${step.fails}: ${goErrorText(err)}`);
  }
  // The reference only logs these (addSourceHints): each on its own, a failure is a warning.
  for (const op of p.hints) {
    await ports.kernel
      .apply([op])
      .catch((e: unknown) =>
        ports.warn(
          `Warning: ${op.op === "route.add" ? "Failed to add subnet route to main table" : "Failed to delete route"}: ${goErrorText(e)}`,
        ),
      );
  }
  return conf.prevResult;
}

async function check(ports: SbrPorts, a: CmdArgs): Promise<void> {
  const conf = parseSbrConfig(a.config);
  if (conf.prevResult === undefined) throw invalidConfig("This plugin must be called as chained plugin");
  await checkSbr(ports.kernel, a.netns, a.ifName, ipConfigsOf(conf.prevResult, a.ifName), conf.table);
}

async function del(ports: SbrPorts, a: CmdArgs): Promise<void> {
  const conf = parseSbrConfig(a.config);
  // DEL-2: nothing to tidy without a namespace. v1.1.1 differs: it fails to lock a netns path that is gone.
  if (a.netns === "" || !(await ports.kernel.netnsExists(a.netns))) return;
  await tidyRules(ports.kernel, a.netns, a.ifName, conf.table);
}

export { planChained } from "./plan-chained.ts";

/** The sbr handlers over the given ports. */
export function sbrHandlers(ports: SbrPorts): PluginHandlers {
  return { add: (a) => add(ports, a), check: (a) => check(ports, a), del: (a) => del(ports, a) };
}

/** The sbr plugin: every spec version (the reference's `version.All`). */
export function sbrDefinition(ports: SbrPorts): PluginDefinition {
  return { name: "sbr", about: "CNI sbr plugin (tscni)", versions: VERSIONS, handlers: sbrHandlers(ports) };
}

/** The binary's entry for `sbr`: the netlink driver (`ip` with TSCNI_KERNEL=iproute2). */
export async function main(io: PluginIO): Promise<number> {
  const { createNetlinkKernel } = await import("@tscni/kernel/netlink");
  const kernel =
    io.env.TSCNI_KERNEL === "iproute2"
      ? (await import("@tscni/kernel/linux")).createLinuxKernel()
      : createNetlinkKernel();
  return pluginMain(sbrDefinition({ kernel, warn: (m) => io.stderr(`${m}\n`) }), io);
}
