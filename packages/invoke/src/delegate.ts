/**
 * Delegation from inside a plugin (DLG-1..DLG-3): find the delegate in `CNI_PATH`, give
 * it this process's environment with only `CNI_COMMAND` replaced, and the same stdin.
 */
import type { Result } from "@tscni/spec";
import { splitPathList } from "./find.ts";
import { defaultExec, execPluginWithResult, execPluginWithoutResult } from "./run.ts";
import type { InvokeOptions } from "./run.ts";
import type { CniArgs } from "./env.ts";

/** The environment a delegate runs with: by default this process's. */
export type DelegateEnv = Readonly<Record<string, string | undefined>>;

async function prepare(
  command: string,
  type: string,
  env: DelegateEnv,
  options: InvokeOptions,
): Promise<{ path: string; args: CniArgs; options: InvokeOptions }> {
  const exec = options.exec ?? defaultExec();
  const path = await exec.findInPath(type, splitPathList(env.CNI_PATH));
  // Inherit every CNI variable as it is and override only the command (DLG-3).
  const args: CniArgs = {
    command,
    containerID: env.CNI_CONTAINERID ?? "",
    netns: env.CNI_NETNS ?? "",
    pluginArgsStr: env.CNI_ARGS ?? "",
    ifName: env.CNI_IFNAME ?? "",
    path: env.CNI_PATH ?? "",
  };
  return { path, args, options: { ...options, exec, baseEnv: env } };
}

/** Runs the delegate `type` with ADD and returns its (usually abbreviated IPAM) result. */
export async function delegateAdd(
  type: string,
  stdin: Uint8Array,
  env: DelegateEnv = process.env,
  options: InvokeOptions = {},
): Promise<Result> {
  const p = await prepare("ADD", type, env, options);
  return execPluginWithResult(p.path, stdin, p.args, p.options);
}

/** Runs the delegate `type` with CHECK and passes its error on (CHK-5). */
export async function delegateCheck(
  type: string,
  stdin: Uint8Array,
  env: DelegateEnv = process.env,
  options: InvokeOptions = {},
): Promise<void> {
  const p = await prepare("CHECK", type, env, options);
  await execPluginWithoutResult(p.path, stdin, p.args, p.options);
}

/** Runs the delegate `type` with DEL and passes its error on (DEL-6). */
export async function delegateDel(
  type: string,
  stdin: Uint8Array,
  env: DelegateEnv = process.env,
  options: InvokeOptions = {},
): Promise<void> {
  const p = await prepare("DEL", type, env, options);
  await execPluginWithoutResult(p.path, stdin, p.args, p.options);
}

/** Runs the delegate `type` with STATUS and passes its error on (ST-4). */
export async function delegateStatus(
  type: string,
  stdin: Uint8Array,
  env: DelegateEnv = process.env,
  options: InvokeOptions = {},
): Promise<void> {
  const p = await prepare("STATUS", type, env, options);
  await execPluginWithoutResult(p.path, stdin, p.args, p.options);
}

/** Runs the delegate `type` with GC (GC-4). */
export async function delegateGC(
  type: string,
  stdin: Uint8Array,
  env: DelegateEnv = process.env,
  options: InvokeOptions = {},
): Promise<void> {
  const p = await prepare("GC", type, env, options);
  await execPluginWithoutResult(p.path, stdin, p.args, p.options);
}
