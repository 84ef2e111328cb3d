/**
 * Throwaway network namespaces for the demo, end-to-end tests and benchmarks. Every
 * namespace made here is named `tscni-<purpose>-<random>` and deleted by `cleanup()`,
 * also on failure; nothing here touches the machine's own namespace.
 */
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
  private readonly tag: string;

  constructor(purpose: string) {
    this.tag = `tscni-${purpose}-${Math.random().toString(16).slice(2, 8)}`;
  }

  /** Creates `<tag>-<role>` and returns its name; its path is `/var/run/netns/<name>`. */
  async add(role: string): Promise<string> {
    const name = `${this.tag}-${role}`;
    await $`ip netns add ${name}`;
    this.names.push(name);
    await $`ip -n ${name} link set lo up`;
    return name;
  }

  /** The path a CNI runtime passes as CNI_NETNS. */
  static path(name: string): string {
    return `/var/run/netns/${name}`;
  }

  /** Deletes every namespace of the set (links inside die with them). */
  async cleanup(): Promise<void> {
    for (const name of this.names.splice(0).reverse()) {
      await $`ip netns del ${name}`.nothrow();
    }
  }
}

/** Runs a command inside a namespace and returns its result (never throws). */
export async function inNetns(name: string, cmd: string[], opts: { env?: Record<string, string>; input?: string } = {}) {
  const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`);
  const p = $({ input: opts.input ?? "" })`ip netns exec ${name} env ${env} ${cmd}`.nothrow();
  const out = await p;
  return { code: out.exitCode ?? 1, stdout: out.stdout, stderr: out.stderr };
}
