/**
 * The tuning plugin (issue 12 item 1), chained only: ADD writes the configured net.*
 * sysctls in the container's namespace and changes the container interface's MAC,
 * promiscuous mode, MTU, all-multicast mode and queue length, keeping the original link
 * attributes in the reference's backup file; CHECK compares (CHK-3); DEL restores the
 * backed-up attributes and removes the file, best effort (DEL-2, DEL-3: it never fails
 * once the config parses). A failed ADD undoes what it did (ADD-6), where the reference
 * leaves it half-applied. No GC or STATUS, as the reference (ST-7).
 */
import { existsSync, readFileSync } from "node:fs";
import { KernelError, type Kernel } from "@tscni/kernel";
import {
  parsePrevResult,
  pluginMain,
  type CmdArgs,
  type PluginDefinition,
  type PluginHandlers,
  type PluginIO,
} from "@tscni/skel";
import { VERSIONS, type Result100 } from "@tscni/spec";
import { goQuote } from "@tscni/spec/go";
import { applyWithRollback, rollback } from "../shared/apply.ts";
import { invalidConfig } from "../shared/netconf.ts";
import { undoOf } from "../shared/steps.ts";
import { backupPath, removeBackup, writeBackup } from "./backup.ts";
import { checkTuning } from "./check.ts";
import { changesLink, checkIfName, checkSysctlKeys, parseTuningConfig } from "./config.ts";
import { invalidMacMessage, parseGoMac } from "./mac.ts";
import { planTuning } from "./plan.ts";
import { restoreBackup } from "./restore.ts";
import { ALLOWLIST_PATH, checkAllowlist, kernelKey, parseAllowlist, sysctlFile } from "./sysctl.ts";

/** What tuning runs on: the kernel, the allowlist file's text, a warning sink. */
export interface TuningPorts {
  kernel: Kernel;
  /** The allowlist's text, undefined when the file does not exist. */
  readAllowlist(): string | undefined;
  warn(msg: string): void;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The reference's words for a namespace that is gone (`ns.WithNetNSPath`). */
async function inNetns<T>(netns: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof KernelError && err.kind === "netns-gone")
      throw new Error(`failed to Statfs ${goQuote(netns)}: no such file or directory`);
    throw err;
  }
}

/** The reference's words for a sysctl write that failed. */
function sysctlError(err: unknown, files: readonly { file: string }[]): Error {
  if (!(err instanceof KernelError) || err.opIndex === undefined)
    return err instanceof Error ? err : new Error(String(err));
  const file = files[err.opIndex]?.file ?? "";
  if (err.kind === "not-found") return new Error(`open ${file}: no such file or directory`);
  if (err.kind === "invalid") return new Error(`write ${file}: invalid argument`);
  return err;
}

/**
 * The reference's words for a link change the kernel refused: netlink's errno text alone
 * (`invalid argument`), where our drivers name the `ip` line and the kernel's reason.
 */
export function linkError(err: unknown): Error {
  if (!(err instanceof KernelError)) return err instanceof Error ? err : new Error(String(err));
  const answer = /RTNETLINK answers: (.+)$/.exec(err.message)?.[1];
  if (answer !== undefined) return new Error(answer.charAt(0).toLowerCase() + answer.slice(1));
  return err.kind === "invalid" ? new Error("invalid argument") : err;
}

async function add(ports: TuningPorts, a: CmdArgs): Promise<Result100> {
  checkSysctlKeys(a.config, a.stdinData);
  const conf = parseTuningConfig(a.config, a.args);
  checkAllowlist(
    conf.sysctl.map(([k]) => k),
    parseAllowlist(ports.readAllowlist()),
  );
  checkIfName(a.ifName);
  // v1.1.1 (Debian) differs: code 999 (a plain error); SPEC §4.2 gives code 7 (invalid network config)
  if (conf.prevResult === undefined) throw invalidConfig("Required prevResult missing");
  const prev = parsePrevResult(a.config) as Result100;
  // Everything the reference would refuse halfway is refused before any change.
  const files = conf.sysctl.map(([key, value]) => ({ file: sysctlFile(key, a.ifName), value }));
  const mac = conf.mac === "" ? undefined : parseGoMac(conf.mac);
  if (conf.mac !== "" && mac === undefined) throw new Error(invalidMacMessage(conf.mac));
  const { kernel } = ports;
  return inNetns(a.netns, async () => {
    const before = new Map<string, string | undefined>();
    for (const f of files) before.set(f.file, await kernel.sysctl(a.netns, kernelKey(f.file)));
    const link = changesLink(conf) ? await kernel.link(a.netns, a.ifName) : undefined;
    if (changesLink(conf) && link === undefined) throw new Error(`failed to get ${goQuote(a.ifName)}: Link not found`);
    const plan = planTuning(conf, a.netns, files, before, link, mac);
    try {
      await applyWithRollback(kernel, plan.sysctls, ports.warn);
    } catch (err) {
      throw sysctlError(err, files);
    }
    const path = backupPath(conf.dataDir, a.containerID, a.ifName);
    try {
      if (plan.backup !== undefined) writeBackup(path, plan.backup, a.ifName);
      await applyWithRollback(kernel, plan.link, ports.warn);
    } catch (err) {
      for (const f of await rollback(kernel, undoOf(plan.sysctls))) ports.warn(`rollback: ${f}`);
      if (plan.backup !== undefined) removeBackup(path);
      throw linkError(err);
    }
    // The result names the interface with the MAC as configured (updateResultsMacAddr).
    if (mac !== undefined) for (const i of prev.interfaces ?? []) if (i.name === a.ifName) i.mac = conf.mac;
    return prev;
  });
}

async function check(ports: TuningPorts, a: CmdArgs): Promise<void> {
  checkSysctlKeys(a.config, a.stdinData);
  const conf = parseTuningConfig(a.config, a.args);
  if (conf.prevResult === undefined) throw invalidConfig("Required prevResult missing");
  parsePrevResult(a.config);
  await inNetns(a.netns, () => checkTuning(ports.kernel, conf, a.netns, a.ifName));
}

async function del(ports: TuningPorts, a: CmdArgs): Promise<void> {
  const conf = parseTuningConfig(a.config, a.args);
  // Best effort, as the reference, which drops restoreBackup's error (DEL-2).
  try {
    await restoreBackup(ports.kernel, backupPath(conf.dataDir, a.containerID, a.ifName), a.netns, a.ifName);
  } catch (err) {
    ports.warn(`tuning: ${message(err)}`);
  }
}

export { planChained } from "./plan-chained.ts";

/** tuning's handlers over the given ports. */
export function tuningHandlers(ports: TuningPorts): PluginHandlers {
  return { add: (a) => add(ports, a), check: (a) => check(ports, a), del: (a) => del(ports, a) };
}

/** The tuning plugin: every spec version (`version.All`). */
export function tuningDefinition(ports: TuningPorts): PluginDefinition {
  return { name: "tuning", about: "CNI tuning plugin (tscni)", versions: VERSIONS, handlers: tuningHandlers(ports) };
}

/** The allowlist file's text, or undefined when it does not exist. */
export function readAllowlistFile(path: string = ALLOWLIST_PATH): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/** The binary's entry for `tuning`: the real kernel (rtnetlink; TSCNI_KERNEL=iproute2 for `ip -batch`). */
export async function main(io: PluginIO): Promise<number> {
  const kernel =
    io.env.TSCNI_KERNEL === "iproute2"
      ? (await import("@tscni/kernel/linux")).createLinuxKernel()
      : (await import("@tscni/kernel/netlink")).createNetlinkKernel();
  return pluginMain(
    tuningDefinition({ kernel, readAllowlist: () => readAllowlistFile(), warn: (m) => io.stderr(`${m}\n`) }),
    io,
  );
}
