/**
 * What the cnitool-compatible verbs share (SPEC.md §7.10, CT-1..CT-4): flags, the
 * environment, the container ID derived from the netns path, and error output.
 */
import { resolve } from "node:path";
import { loadNetwork } from "@tscni/config";
import type { NetworkConfigList } from "@tscni/config";
import { defaultExec, splitPathList } from "@tscni/invoke";
import { CniRuntime, DEFAULT_CACHE_DIR } from "@tscni/runtime";
import type { RuntimeConf } from "@tscni/runtime";
import { CniError, ErrorCode, goJSON } from "@tscni/spec";
import { cnitoolArgs } from "@tscni/spec/cni-args";
import type { CommandIO } from "../io.ts";
import { withInProcessPlugins } from "../in-process.ts";

/** cnitool's default config directory (CT-2). */
export const DEFAULT_NET_DIR = "/etc/cni/net.d";

/** The flags every cnitool verb takes. */
export const COMMON_OPTIONS = `options:
  -i, --ifname <name>    interface name (default: $CNI_IFNAME, else eth0)
  --cache-dir <dir>      result cache directory (default: $CNI_CACHE_DIR, else ${DEFAULT_CACHE_DIR})
  --timeout <seconds>    kill a plugin that runs longer (default 120)

environment:
  NETCONFPATH   config directory (default ${DEFAULT_NET_DIR})
  CNI_PATH      plugin directories, separated by ':'
  CNI_ARGS      K=V pairs separated by ';' (strict: every pair needs a key and a value)
  CAP_ARGS      capability arguments as a JSON object
  CNI_IFNAME    interface name when -i is not given

Errors are printed as a CNI error object on stdout, exit status 1 (cnitool prints them
as text on stderr).`;

/** A usage problem: printed to stderr with exit status 2. */
export class UsageError extends Error {}

/** The parsed command line of a cnitool verb. */
export interface CnitoolArgs {
  readonly positionals: string[];
  readonly ifName?: string;
  readonly cacheDir?: string;
  readonly timeoutMs?: number;
}

/** Parses `-i/--ifname`, `--cache-dir` and `--timeout` (both `--x v` and `--x=v`) and the positionals. */
export function parseCnitoolArgs(argv: readonly string[]): CnitoolArgs {
  const positionals: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const known =
      name === "-i" || name === "--ifname"
        ? "ifname"
        : name === "--cache-dir"
          ? "cache-dir"
          : name === "--timeout"
            ? "timeout"
            : undefined;
    if (known === undefined) {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown flag "${arg}"`);
      positionals.push(arg);
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`flag "${name}" needs a value`);
    flags[known] = value;
  }
  let timeoutMs: number | undefined;
  if (flags.timeout !== undefined) {
    const seconds = Number(flags.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`invalid --timeout "${flags.timeout}"`);
    timeoutMs = Math.round(seconds * 1000);
  }
  return {
    positionals,
    ...(flags.ifname !== undefined ? { ifName: flags.ifname } : {}),
    ...(flags["cache-dir"] !== undefined ? { cacheDir: flags["cache-dir"] } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/** Parses `CNI_ARGS` strictly as cnitool does (CT-2); the one parser lives in `@tscni/spec/cni-args`. */
export const parseCniArgsStrict = cnitoolArgs;

/** cnitool's container ID (CT-3): `cnitool-` + hex of the first 10 bytes of SHA-512 of the absolute netns path. */
export function cnitoolContainerID(absNetnsPath: string): string {
  // Bun's own hasher, not node:crypto: importing node:crypto costs `cni add` 10 ms and more of its start.
  return `cnitool-${new Bun.CryptoHasher("sha512").update(absNetnsPath).digest("hex").slice(0, 20)}`;
}

function parseCapArgs(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw new CniError(ErrorCode.DecodingFailure, `invalid CAP_ARGS: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new CniError(ErrorCode.DecodingFailure, "invalid CAP_ARGS: not a JSON object");
  }
  return parsed as Record<string, unknown>;
}

/** Everything a verb needs: the loaded list, the attachment and a runtime. */
export interface CnitoolSetup {
  readonly list: NetworkConfigList;
  readonly rt: RuntimeConf;
  readonly runtime: CniRuntime;
}

/** The runtime a verb uses: `CNI_PATH`, the cache dir (flag, `CNI_CACHE_DIR`, default), the timeout. */
export function runtimeFor(io: CommandIO, args: CnitoolArgs): CniRuntime {
  return new CniRuntime({
    paths: splitPathList(io.env.CNI_PATH),
    // Our own plugins run in this process (issue 11 item 1); others are exec'd.
    exec: withInProcessPlugins(defaultExec(), io.env),
    cacheDir: args.cacheDir ?? (io.env.CNI_CACHE_DIR || DEFAULT_CACHE_DIR),
    // One call per process: blocking cache calls spare the thread pool's start (issue 11 item 4c).
    blockingCache: true,
    baseEnv: io.env,
    ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
  });
}

/** cnitool's setupRuntimeConfig (CT-2, CT-3): load the network, read the env, derive the container ID. */
export async function setup(io: CommandIO, args: CnitoolArgs): Promise<CnitoolSetup> {
  const [netName, netns] = args.positionals;
  if (netName === undefined || netns === undefined) throw new UsageError("network name and namespace are required");
  const list = await loadNetwork(io.env.NETCONFPATH || DEFAULT_NET_DIR, netName);
  const capArgs = io.env.CAP_ARGS ?? "";
  const cniArgs = io.env.CNI_ARGS ?? "";
  const absNetns = resolve(netns);
  const rt: RuntimeConf = {
    containerID: cnitoolContainerID(absNetns),
    netns: absNetns,
    ifName: args.ifName || io.env.CNI_IFNAME || "eth0",
    ...(cniArgs !== "" ? { args: parseCniArgsStrict(cniArgs) } : {}),
    ...(capArgs !== "" ? { capabilityArgs: parseCapArgs(capArgs) } : {}),
  };
  return { list, rt, runtime: runtimeFor(io, args) };
}

/**
 * Runs a verb body with cnitool's error handling, except that a CNI error goes to stdout
 * as a CNI error object (exit 1) rather than text on stderr; usage errors exit 2.
 */
export async function runVerb(
  io: CommandIO,
  help: string,
  body: (args: CnitoolArgs) => Promise<void>,
): Promise<number> {
  try {
    await body(parseCnitoolArgs(io.argv));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`${err.message}\n\n${help.endsWith("\n") ? help : `${help}\n`}`);
      return 2;
    }
    const cni = CniError.from(err);
    io.stdout(`${goJSON(cni.toWire())}\n`);
    return 1;
  }
}
