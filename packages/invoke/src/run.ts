/**
 * Running one plugin and decoding its answer: the Go lib's `ExecPluginWithResult` and
 * `ExecPluginWithoutResult` (RP-2, E-5), with a per-call timeout.
 */
import { parseResult } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import { DEFAULT_TIMEOUT_MS } from "./exec.ts";
import type { Exec, ExecOutcome } from "./exec.ts";
import { BunExec } from "./exec-bun.ts";
import { configVersion, pluginError, rawResult } from "./decode.ts";
import { pluginEnv } from "./env.ts";
import type { CniArgs } from "./env.ts";

/** How a plugin call runs: the exec port, the time limit and the environment to inherit. */
export interface InvokeOptions {
  /** Defaults to the shared {@link BunExec}. */
  readonly exec?: Exec;
  /** Milliseconds before the plugin is killed and the call fails with code 11; default 2 minutes. */
  readonly timeoutMs?: number;
  /** The environment the plugin inherits under the CNI variables (P-8); default `process.env`. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
}

let sharedExec: Exec | undefined;

/** The process-wide real exec, created on first use. */
export function defaultExec(): Exec {
  sharedExec ??= new BunExec();
  return sharedExec;
}

/** Runs the plugin and returns its stdout; throws the decoded CniError when it failed (E-5). */
export async function execPluginRaw(
  path: string,
  netconf: Uint8Array,
  args: CniArgs,
  options: InvokeOptions = {},
): Promise<Uint8Array> {
  const exec = options.exec ?? defaultExec();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const outcome: ExecOutcome = await exec.execPlugin(path, {
    env: pluginEnv(args, options.baseEnv),
    stdin: netconf,
    timeoutMs,
  });
  if (outcome.failure !== undefined || outcome.timedOut === true) throw pluginError(path, outcome, timeoutMs);
  return outcome.stdout;
}

/**
 * Runs the plugin and parses its result (RP-2): empty stdout fails, `null` is `{}`, the
 * result's own `cniVersion` wins over the config's, a missing one takes the config's.
 */
export async function execPluginWithResult(
  path: string,
  netconf: Uint8Array,
  args: CniArgs,
  options: InvokeOptions = {},
): Promise<Result> {
  const stdout = await execPluginRaw(path, netconf, args, options);
  // libcni's checks and wording first (RP-2), then the typed parse of the same bytes, so
  // numbers are judged as Go's decoder judges them.
  rawResult(netconf, stdout);
  return parseResult(stdout, configVersion(netconf));
}

/** Runs the plugin for a command without a result (DEL, CHECK, GC, STATUS); stdout is ignored (DEL-7). */
export async function execPluginWithoutResult(
  path: string,
  netconf: Uint8Array,
  args: CniArgs,
  options: InvokeOptions = {},
): Promise<void> {
  await execPluginRaw(path, netconf, args, options);
}
