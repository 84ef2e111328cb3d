/**
 * Test fixture of `in-process.test.ts`: runs inside a throwaway host namespace (through
 * `ip netns exec`) and makes a list of plugin calls, either each as a child process
 * (`exec`) or in this process (`in-process`), dumping the kernel state after each call.
 * Reads the script as JSON on stdin, prints the transcript as JSON on stdout.
 */
import { BunExec } from "@tscni/invoke";
import { InProcessExec } from "@tscni/runtime";
import { join } from "node:path";
import { inProcessPlugins } from "../in-process.ts";

/** One call: the plugin, its environment, its config; `prevFrom` injects an earlier ADD's result. */
export interface WorkerCall {
  plugin: string;
  env: Record<string, string>;
  config: Record<string, unknown> | string;
  prevFrom?: number;
}

/** What the worker is told to do. */
export interface WorkerScript {
  mode: "exec" | "in-process";
  binDir: string;
  containers: string[];
  calls: WorkerCall[];
}

/** What one call left: its stdout, its failure (as os/exec words it) and the kernel afterwards. */
export interface WorkerStep {
  stdout: string;
  failure: string | null;
  state: unknown;
}

interface IpLink {
  ifname: string;
  flags?: string[];
  mtu?: number;
  master?: string;
  address?: string;
  linkinfo?: { info_kind?: string };
}
interface IpAddr {
  ifname: string;
  addr_info?: { local: string; prefixlen: number; scope?: string }[];
}
interface IpRoute {
  type?: string;
  dst: string;
  gateway?: string;
  dev?: string;
  table?: string;
  protocol?: string;
  scope?: string;
  metric?: number;
  nexthops?: { gateway?: string; dev?: string }[];
}

function ipJson<T>(args: string[]): T[] {
  const r = Bun.spawnSync(["ip", "-j", ...args], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`ip ${args.join(" ")}: ${r.stderr.toString().trim()}`);
  return JSON.parse(r.stdout.toString() || "[]") as T[];
}

// Link-local addresses follow the random MACs and appear when DAD is done: timing, not state.
const linkLocal = (a: string | undefined): boolean => a?.startsWith("fe80") === true;

/** The observable network state of one namespace (undefined: this process's own), as lines. */
function nsState(ns: string | undefined): { links: string[]; addrs: string[]; routes: string[]; forwarding: string } {
  const n = ns === undefined ? [] : ["-n", ns];
  // Carrier flags follow the kernel's link watch (a bridge loses its carrier some time
  // after its last port goes): timing, not state. The admin flags (UP) stay.
  const carrier = new Set(["NO-CARRIER", "LOWER_UP", "M-DOWN"]);
  const links = ipJson<IpLink>([...n, "-d", "link", "show"]).map((l) => {
    const flags = (l.flags ?? []).filter((f) => !carrier.has(f)).sort();
    return `${l.ifname} kind=${l.linkinfo?.info_kind ?? ""} master=${l.master ?? ""} mtu=${l.mtu} mac=${l.address} flags=${flags.join(",")}`;
  });
  const addrs = ipJson<IpAddr>([...n, "addr", "show"]).flatMap((l) =>
    (l.addr_info ?? [])
      .filter((a) => !linkLocal(a.local))
      .map((a) => `${l.ifname} ${a.local}/${a.prefixlen} ${a.scope ?? ""}`),
  );
  // Local, broadcast, anycast and multicast routes follow the addresses (an IPv6 one only
  // once DAD is done), so only the routes a plugin adds or the kernel derives from prefixes.
  const derived = new Set(["local", "broadcast", "anycast", "multicast"]);
  const routes = ipJson<IpRoute>([...n, "route", "show", "table", "all"])
    .filter((r) => !linkLocal(r.dst) && !derived.has(r.type ?? ""))
    .map(
      (r) =>
        `${r.type ?? "unicast"} ${r.dst} via=${r.gateway ?? ""} dev=${r.dev ?? ""} table=${r.table ?? "main"} proto=${r.protocol ?? ""} scope=${r.scope ?? ""} metric=${r.metric ?? ""} nh=${(r.nexthops ?? []).map((h) => `${h.gateway}@${h.dev}`).join(",")}`,
    );
  const keys = ["net/ipv4/ip_forward", "net/ipv6/conf/all/forwarding"].map((k) => `/proc/sys/${k}`);
  const read = Bun.spawnSync(ns === undefined ? ["cat", ...keys] : ["ip", "netns", "exec", ns, "cat", ...keys], {
    stdout: "pipe",
  });
  return { links, addrs, routes, forwarding: read.stdout.toString().trim().replace(/\n/g, " ") };
}

const script = JSON.parse(await Bun.stdin.text()) as WorkerScript;
const exec = new BunExec();
const runner = script.mode === "exec" ? exec : new InProcessExec(exec, inProcessPlugins(join(script.binDir, "cni")));
const steps: WorkerStep[] = [];
for (const call of script.calls) {
  let config = call.config;
  if (call.prevFrom !== undefined && typeof config === "object") {
    const prev = steps[call.prevFrom]?.stdout ?? "";
    config = { ...config, prevResult: JSON.parse(prev) as unknown };
  }
  const stdin = new TextEncoder().encode(typeof config === "string" ? config : JSON.stringify(config));
  const path = join(script.binDir, call.plugin);
  const env = { PATH: process.env.PATH ?? "", ...call.env };
  const outcome = await runner.execPlugin(path, { env, stdin, timeoutMs: 60_000 });
  const state = { host: nsState(undefined), containers: script.containers.map((c) => nsState(c)) };
  steps.push({ stdout: new TextDecoder().decode(outcome.stdout), failure: outcome.failure ?? null, state });
}
process.stdout.write(JSON.stringify(steps));
