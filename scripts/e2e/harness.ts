/**
 * End-to-end harness: runs the compiled binary as a plugin, through the CNI protocol
 * alone (env + stdin -> stdout + exit code), inside a throwaway "host" namespace, against
 * throwaway "container" namespaces. Used by the e2e tests, the demo and the benchmarks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NetnsSet } from "../lib/netns.ts";
import { runPlugin } from "../lib/run-plugin.ts";

/** Where `npm run build` leaves the binary and its links. */
export const BIN_DIR = new URL("../../dist/bin", import.meta.url).pathname;

/** The outcome of one plugin call. */
export interface CallResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall-clock milliseconds, including `ip netns exec`. */
  ms: number;
}

/** One CNI call made the way a runtime makes it (P-8: all six variables set). */
export interface Call {
  plugin: string;
  command: "ADD" | "DEL" | "CHECK" | "VERSION" | "GC" | "STATUS";
  containerID?: string;
  netns?: string;
  ifName?: string;
  args?: string;
  config: object;
  extraEnv?: Record<string, string>;
}

/** Runs `ip netns exec <hostNs> <bin>/<plugin>` with the CNI env and the config on stdin. */
export async function callPlugin(hostNs: string, call: Call): Promise<CallResult> {
  const t0 = performance.now();
  const r = await runPlugin(
    join(BIN_DIR, call.plugin),
    {
      command: call.command,
      containerID: call.containerID ?? "",
      netns: call.netns ?? "",
      ifName: call.ifName,
      args: call.args,
      path: BIN_DIR,
    },
    call.config,
    { host: hostNs, env: call.extraEnv },
  );
  return { ...r, ms: performance.now() - t0 };
}

/** Runs a shell command inside a namespace. */
export async function sh(ns: string, cmd: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(["ip", "netns", "exec", ns, ...cmd], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** Pings until it answers or `tries` run out (IPv6 DAD may still be settling). */
export async function pingUntil(ns: string, address: string, tries = 10): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    const r = await sh(ns, ["ping", "-c", "1", "-W", "1", address]);
    if (r.code === 0) return true;
    // A missing ping is not an unreachable address: say so instead of "expected true".
    if (r.stderr.includes('exec of "ping" failed'))
      throw new Error(`ping is missing (apt-get install iputils-ping): ${r.stderr.trim()}`);
    await Bun.sleep(300);
  }
  return false;
}

/** Link names in a namespace (`ip -o link`). */
export async function linkNames(ns: string): Promise<string[]> {
  const r = await sh(ns, ["ip", "-j", "link", "show"]);
  return (JSON.parse(r.stdout || "[]") as { ifname: string }[]).map((l) => l.ifname).sort();
}

/** A world of one host namespace, N containers and a temp dir, torn down by `close()`. */
export class World {
  readonly set: NetnsSet;
  host = "";
  readonly containers: string[] = [];
  readonly dir: string;

  private constructor(purpose: string) {
    this.set = new NetnsSet(purpose);
    this.dir = mkdtempSync(join(tmpdir(), `tscni-${purpose}-`));
  }

  /** Creates the host namespace and `n` containers. */
  static async create(purpose: string, n: number): Promise<World> {
    const w = new World(purpose);
    try {
      w.host = await w.set.add("host");
      for (let i = 0; i < n; i++) w.containers.push(await w.set.add(`c${i}`));
    } catch (err) {
      await w.close();
      throw err;
    }
    return w;
  }

  /** The CNI_NETNS path of container `i`. */
  netns(i: number): string {
    return NetnsSet.path(this.containers[i]!);
  }

  /** Deletes every namespace and the temp dir. */
  async close(): Promise<void> {
    await this.set.cleanup();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
