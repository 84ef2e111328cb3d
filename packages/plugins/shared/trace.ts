/**
 * Phase timings of one plugin invocation on stderr, for finding where an ADD's time goes
 * (docs/PERFORMANCE.md): `TSCNI_TRACE=1` wraps the Kernel and Firewall ports and the IPAM delegate so
 * that every call prints when it started (ms since the process started) and how long it
 * took. Off by default; the plugin path pays nothing when it is off.
 */
import { readFileSync } from "@tscni/kernel/fs";
import type { Firewall } from "@tscni/firewall";
import type { Kernel } from "@tscni/kernel";
import type { Ipam, IpamFactory } from "./ipam.ts";

/** Prints timed phases. */
export interface Tracer {
  /** Prints a point in time; a label function is called after the time is taken. */
  mark(label: string | (() => string)): void;
  /** Runs `work`, printing its start and duration. */
  span<T>(label: string, work: () => Promise<T>): Promise<T>;
}

/** A tracer writing to `write` when `env.TSCNI_TRACE` is `1`, else undefined. */
export function createTracer(
  env: Readonly<Record<string, string | undefined>>,
  write: (s: string) => void,
): Tracer | undefined {
  if (env.TSCNI_TRACE !== "1") return undefined;
  // performance.now() counts from the process's start, so start-up shows as the first offset.
  const line = (at: number, label: string, took?: number) =>
    write(
      `[tscni] ${at.toFixed(2).padStart(8)} ms ${took === undefined ? "" : `${took.toFixed(2).padStart(7)} ms `}${label}\n`,
    );
  return {
    // The time is taken before the label is built: the exit mark's RSS line reads /proc.
    mark: (label) => line(performance.now(), typeof label === "string" ? label : label()),
    async span(label, work) {
      const t0 = performance.now();
      try {
        return await work();
      } finally {
        line(t0, label, performance.now() - t0);
      }
    },
  };
}

/** The kernel with every call traced. */
export function tracedKernel(k: Kernel, t: Tracer): Kernel {
  return {
    apply: (batch) =>
      t.span(`kernel.apply ${batch.length} ops: ${[...new Set(batch.map((o) => o.op))].join(",")}`, () =>
        k.apply(batch),
      ),
    netnsExists: (ns) => t.span(`kernel.netnsExists ${ns}`, () => k.netnsExists(ns)),
    links: (ns) => t.span(`kernel.links ${ns}`, () => k.links(ns)),
    link: (ns, name) => t.span(`kernel.link ${ns} ${name}`, () => k.link(ns, name)),
    addresses: (ns, dev) => t.span(`kernel.addresses ${ns} ${dev ?? ""}`, () => k.addresses(ns, dev)),
    routes: (ns, family, table) =>
      t.span(`kernel.routes ${ns} ${family ?? ""} ${table ?? ""}`, () => k.routes(ns, family, table)),
    rules: (ns, family) => t.span(`kernel.rules ${ns} ${family ?? ""}`, () => k.rules(ns, family)),
    sysctl: (ns, key) => t.span(`kernel.sysctl ${ns} ${key}`, () => k.sysctl(ns, key)),
    qdiscs: (ns, dev) => t.span(`kernel.qdiscs ${ns} ${dev}`, () => k.qdiscs(ns, dev)),
  };
}

/** The firewall with every call traced. */
export function tracedFirewall(f: Firewall, t: Tracer): Firewall {
  return {
    support: () => t.span("firewall.support", () => f.support()),
    apply: (tx) =>
      t.span(`firewall.apply ${tx.length} ops: ${[...new Set(tx.map((o) => o.op))].join(",")}`, () => f.apply(tx)),
    iptables: (family, table) => t.span(`firewall.iptables ${family} ${table}`, () => f.iptables(family, table)),
    nftTable: (family, table) => t.span(`firewall.nftTable ${family} ${table}`, () => f.nftTable(family, table)),
    ...(f.prepare !== undefined && { prepare: () => t.span("firewall.prepare", () => f.prepare!()) }),
  };
}

/** The IPAM factory with every command traced. */
export function tracedIpam(f: IpamFactory, t: Tracer): IpamFactory {
  return (type, args) => {
    const ipam = f(type, args);
    const wrap = <K extends keyof Ipam>(name: K): Ipam[K] =>
      (() => t.span(`ipam.${name} ${type}`, () => ipam[name]() as Promise<never>)) as Ipam[K];
    return { add: wrap("add"), check: wrap("check"), del: wrap("del"), status: wrap("status"), gc: wrap("gc") };
  };
}

/**
 * This process's peak and current RSS, split into anonymous and file-backed, from /proc,
 * with its CPU time and minor page faults so far (all threads): on a virtual machine a
 * page fault is costly, and the pages a call touches are most of its cost above Bun's.
 */
export function memoryLine(): string {
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (key: string): string =>
    `${((Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1]) || 0) / 1024).toFixed(1)}`;
  return `RSS peak ${kib("VmHWM")} MiB, now ${kib("VmRSS")} MiB (anon ${kib("RssAnon")}, file ${kib("RssFile")}), threads ${/^Threads:\s+(\d+)/m.exec(status)?.[1]}, ${usageLine()}`;
}

/** This process's CPU time (user + system, all threads) and minor page faults so far. */
export function usageLine(): string {
  const usage = process.resourceUsage();
  return `CPU ${((usage.userCPUTime + usage.systemCPUTime) / 1000).toFixed(1)} ms, ${usage.minorPageFault} page faults`;
}
