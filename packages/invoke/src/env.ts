/**
 * The environment a plugin receives (P-8) and the `CNI_ARGS` string (CA-4).
 */

/** The per-invocation parameters of one plugin call (the Go lib's `invoke.Args`). */
export interface CniArgs {
  readonly command: string;
  readonly containerID?: string;
  readonly netns?: string;
  /** Key/value pairs joined into `CNI_ARGS` (CA-4); ignored when `pluginArgsStr` is set. */
  readonly pluginArgs?: readonly (readonly [string, string])[];
  /** A ready-made `CNI_ARGS` string. */
  readonly pluginArgsStr?: string;
  readonly ifName?: string;
  /** The `CNI_PATH` value: the runtime's plugin directories joined with `:` (EX-4). */
  readonly path?: string;
}

/**
 * Joins pairs as `k=v` with `;`, with no escaping (CA-4).
 *
 * @example stringifyCniArgs([["IgnoreUnknown", "1"], ["IP", "198.18.0.5"]]) // "IgnoreUnknown=1;IP=198.18.0.5"
 */
export function stringifyCniArgs(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([k, v]) => `${k}=${v}`).join(";");
}

/**
 * The plugin's environment: the caller's whole environment, then all six CNI variables,
 * unused ones set to the empty string; the CNI values win over inherited ones (P-8).
 */
export function pluginEnv(
  args: CniArgs,
  base: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  env.CNI_COMMAND = args.command;
  env.CNI_CONTAINERID = args.containerID ?? "";
  env.CNI_NETNS = args.netns ?? "";
  env.CNI_ARGS =
    args.pluginArgsStr !== undefined && args.pluginArgsStr !== ""
      ? args.pluginArgsStr
      : stringifyCniArgs(args.pluginArgs ?? []);
  env.CNI_IFNAME = args.ifName ?? "";
  env.CNI_PATH = args.path ?? "";
  return env;
}
