/**
 * Throwaway network namespaces for the demo, end-to-end tests and benchmarks. Every
 * namespace made here is named `tscni-<purpose>-<random>` and deleted by `cleanup()`,
 * also on failure; nothing here touches the machine's own namespace.
 */
import { createThrowawayNetns, deleteThrowawayNetns } from "@tscni/kernel/testing";
import { $ } from "zx";

$.verbose = false;
$.quiet = true;

/** True when we can create network namespaces (root). */
export function canUseNetns(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** A set of namespaces that are deleted together. */
export class NetnsSet {
  readonly names: string[] = [];

  constructor(private readonly purpose: string) {}

  /**
   * Creates `tscni-<purpose>-<role>-<random>` (loopback up) with the one throwaway helper
   * the tests use too (`@tscni/kernel/testing`) and returns its name; its path is
   * `/var/run/netns/<name>`.
   */
  async add(role: string): Promise<string> {
    const { name } = createThrowawayNetns(`${this.purpose}-${role}`);
    this.names.push(name);
    return name;
  }

  /** The path a CNI runtime passes as CNI_NETNS. */
  static path(name: string): string {
    return `/var/run/netns/${name}`;
  }

  /** Deletes every namespace of the set (links inside die with them). */
  async cleanup(): Promise<void> {
    for (const name of this.names.splice(0).reverse()) deleteThrowawayNetns({ name, path: NetnsSet.path(name) });
  }
}

/** Runs a command inside a namespace and returns its result (never throws). */
export async function inNetns(
  name: string,
  cmd: string[],
  opts: { env?: Record<string, string>; input?: string } = {},
) {
  const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`);
  const p = $({ input: opts.input ?? "" })`ip netns exec ${name} env ${env} ${cmd}`.nothrow();
  const out = await p;
  return { code: out.exitCode ?? 1, stdout: out.stdout, stderr: out.stderr };
}

/**
 * Makes a throwaway host namespace and `containers` container namespaces, then runs
 * `argv` inside the host one with `BENCH_NETNS` (the containers' paths, comma-separated)
 * and `BENCH_DIR` (a scratch directory) in its environment, so that what it spawns runs as
 * a runtime would run it. Deletes everything afterwards; resolves to argv's exit code.
 */
export async function runInsideThrowawayHost(purpose: string, containers: number, argv: string[]): Promise<number> {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const set = new NetnsSet(purpose);
  const dir = mkdtempSync(join(tmpdir(), `tscni-${purpose}-`));
  try {
    const host = await set.add("host");
    const paths: string[] = [];
    for (let i = 0; i < containers; i++) paths.push(NetnsSet.path(await set.add(`c${i}`)));
    const proc = Bun.spawn(["ip", "netns", "exec", host, ...argv], {
      env: { ...process.env, BENCH_NETNS: paths.join(","), BENCH_DIR: dir },
      stdout: "inherit",
      stderr: "inherit",
    });
    return await proc.exited;
  } finally {
    await set.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}
