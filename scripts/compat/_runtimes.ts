/**
 * The two cnitool-like runtimes the runtime compatibility tests swap: the reference
 * (our refcni, a cnitool on Debian's libcni) and ours (`cni add|check|del`). Both take
 * the same command line shape, environment and cache directory, and derive the same
 * container ID from the netns path (CT-3).
 */
import { OUR_CNI, buildGo, run } from "./_reference.ts";
import type { Run } from "./_reference.ts";

/** Which runtime drives the plugins. */
export type Runtime = "reference" | "ours";

/** One runtime call. */
export interface RuntimeCall {
  cmd: "add" | "check" | "del";
  net: string;
  netns: string;
  cacheDir: string;
  /** NETCONFPATH, CNI_PATH, CNI_IFNAME, CNI_ARGS, CAP_ARGS and anything to pass through. */
  env: Record<string, string>;
  /** Run inside this network namespace (the one playing the host). */
  hostNs?: string;
}

/** The command line of `runtime` for `call`. */
export function runtimeArgv(runtime: Runtime, call: RuntimeCall): string[] {
  const argv =
    runtime === "reference"
      ? [buildGo("refcni"), "--cache-dir", call.cacheDir, call.cmd, call.net, call.netns]
      : [OUR_CNI, call.cmd, call.net, call.netns, "--cache-dir", call.cacheDir];
  return call.hostNs === undefined ? argv : ["ip", "netns", "exec", call.hostNs, ...argv];
}

/** Runs one runtime call and returns what it printed. */
export function runRuntime(runtime: Runtime, call: RuntimeCall): Promise<Run> {
  return run(runtimeArgv(runtime, call), { env: call.env });
}

/** Runs a call that must succeed; the error names the runtime and its output. */
export async function mustRun(runtime: Runtime, call: RuntimeCall): Promise<string> {
  const out = await runRuntime(runtime, call);
  if (out.code !== 0) {
    throw new Error(
      `${runtime} ${call.cmd} ${call.net} failed (exit ${out.code}): ${out.stdout.trim()} ${out.stderr.trim()}`,
    );
  }
  return out.stdout;
}

/** cnitool's container ID for a netns path (CT-3), to find cache files and reservations. */
export function cnitoolContainerID(netnsPath: string): string {
  const digest = new Bun.CryptoHasher("sha512").update(netnsPath).digest();
  return `cnitool-${Buffer.from(digest.subarray(0, 10)).toString("hex")}`;
}
