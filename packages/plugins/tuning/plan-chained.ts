/**
 * tuning in `cni plan`: its ADD on the interface plugin's planned result, refused as ADD
 * would refuse it (sysctl keys, the allowlist, the interface name, the MAC), then the
 * sysctl writes and link changes in the reference's order. The container interface does
 * not exist yet, so the values ADD would back up and restore are not known: the plan has
 * the changes only, not their undo.
 */
import { existsSync, readFileSync } from "node:fs";
import type { KernelOp, LinkInfo } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { opsOf } from "../shared/steps.ts";
import { checkIfName, checkSysctlKeys, parseTuningConfig } from "./config.ts";
import { invalidMacMessage, parseGoMac } from "./mac.ts";
import { planTuning } from "./plan.ts";
import { ALLOWLIST_PATH, checkAllowlist, parseAllowlist, sysctlFile } from "./sysctl.ts";

/** What ADD would do to the planned interface. Reads only the allowlist file; applies nothing. */
export async function planChained(
  a: CmdArgs,
  _prev: Result100,
): Promise<{ firewall: []; notes: string[]; ops: KernelOp[] }> {
  checkSysctlKeys(a.config, a.stdinData);
  const conf = parseTuningConfig({ ...a.config, prevResult: undefined }, a.args);
  const allowlist = existsSync(ALLOWLIST_PATH) ? readFileSync(ALLOWLIST_PATH, "utf8") : undefined;
  checkAllowlist(
    conf.sysctl.map(([k]) => k),
    parseAllowlist(allowlist),
  );
  checkIfName(a.ifName);
  const files = conf.sysctl.map(([key, value]) => ({ file: sysctlFile(key, a.ifName), value }));
  const mac = conf.mac === "" ? undefined : parseGoMac(conf.mac);
  if (conf.mac !== "" && mac === undefined) throw new Error(invalidMacMessage(conf.mac));
  // Only the planned ops are printed: the placeholder's values would be the undo's.
  const planned: LinkInfo = {
    index: 0,
    name: a.ifName,
    kind: "veth",
    mac: "",
    mtu: 0,
    up: false,
    operState: "DOWN",
    promisc: false,
  };
  const plan = planTuning(conf, a.netns, files, new Map(), planned, mac);
  return { firewall: [], notes: [], ops: [...opsOf(plan.sysctls), ...opsOf(plan.link)] };
}
