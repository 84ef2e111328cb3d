/**
 * The production wiring of {@link PluginPorts}: the Linux kernel driver, the Linux
 * firewall (loaded on first use), IPAM delegated through CNI_PATH (in process when the
 * IPAM type is this binary), crypto randomness.
 * Only the binary's plugin entries import this file.
 */
import { isOwnNetns, type PluginDefinition, type SkelPorts } from "@tscni/skel";
import { statSync } from "@tscni/kernel/fs";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { lazyLinuxFirewall } from "./lazy-firewall.ts";
import { delegatingIpam, invokeExec } from "./ipam.ts";
import type { PluginPorts } from "./ports.ts";
import { createTracer, memoryLine, tracedFirewall, tracedIpam, tracedKernel, usageLine } from "./trace.ts";
import { cryptoBytes } from "./veth.ts";

/** IPAM plugins this binary carries, by type: loaded only when a network uses them in process. */
export const IN_PROCESS_IPAM: Readonly<Record<string, () => Promise<PluginDefinition>>> = {
  "host-local": async () => (await import("../host-local/index.ts")).definition,
  static: async () => (await import("../static/index.ts")).definition,
};

const isFile = (path: string): boolean => statSync(path).isFile();

/**
 * The framework's ports of a plugin process: the own-netns check (§1.11 step 7) through the
 * libc stat, so that no plugin call loads node:fs (docs/PERFORMANCE.md).
 */
export const realSkelPorts: SkelPorts = { sameNetns: (path) => isOwnNetns(path, statSync) };

/** The real ports for one plugin invocation with environment `env` and stderr `stderr`. */
export function realPorts(env: Readonly<Record<string, string | undefined>>, stderr: (s: string) => void): PluginPorts {
  // rtnetlink by default; TSCNI_KERNEL=iproute2 falls back to `ip -batch` processes.
  const kernel = env.TSCNI_KERNEL === "iproute2" ? createLinuxKernel() : createNetlinkKernel();
  const ipam = delegatingIpam({
    env,
    selfPath: process.execPath,
    inProcess: IN_PROCESS_IPAM,
    findInPath: async (name, paths) => (await import("@tscni/invoke/find")).findInPath(name, paths, isFile),
    exec: invokeExec,
  });
  // TSCNI_TRACE=1: every kernel and IPAM call timed on stderr (docs/PERFORMANCE.md).
  const trace = createTracer(env, stderr);
  trace?.mark(() => `plugin code loaded, ${usageLine()}`);
  if (trace !== undefined) process.once("exit", () => trace.mark(() => `exit, ${memoryLine()}`));
  return {
    kernel: trace === undefined ? kernel : tracedKernel(kernel, trace),
    firewall: trace === undefined ? lazyLinuxFirewall() : tracedFirewall(lazyLinuxFirewall(), trace),
    ipam: trace === undefined ? ipam : tracedIpam(ipam, trace),
    random: cryptoBytes,
    sleep: (ms) => Bun.sleep(ms),
    warn: (msg) => stderr(`${msg}\n`),
  };
}
