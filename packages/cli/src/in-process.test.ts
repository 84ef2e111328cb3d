/**
 * Differential test of the in-process plugins (issue 11 item 1): every plugin of the
 * binary runs the same calls once exec'd (dist/bin, the compiled binary) and once in
 * process (InProcessExec), each time in fresh throwaway namespaces of the same names with
 * a fresh data dir of the same path, so stdin and env are byte for byte the same. The
 * stdout of every call, its exit status and the kernel state after it must be equal, up to
 * what is random by design (veth names, MAC addresses, link-local addresses).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  canUseRealKernel,
  createThrowawayNetns,
  deleteThrowawayNetns,
  type ThrowawayNetns,
} from "@tscni/kernel/testing";
import type { WorkerCall, WorkerScript, WorkerStep } from "./testing/in-process.worker.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const BIN = join(ROOT, "dist/bin");
const WORKER = join(import.meta.dir, "testing/in-process.worker.ts");
const BUN = process.execPath;
const root = canUseRealKernel();
const built = ["cni", "bridge", "ptp", "host-local", "loopback"].every((f) => existsSync(join(BIN, f)));
if (!root && process.env.CI !== "true")
  console.warn("in-process.test: not root, skipping the real-kernel differential test");
else if (!built) console.warn("in-process.test: dist/bin incomplete: run `npm run build`");
const run = (root || process.env.CI === "true") && built ? describe : describe.skip;

/** Runs the script in namespaces `names` (host first), made fresh and deleted afterwards. */
async function side(
  mode: WorkerScript["mode"],
  names: string[],
  dataDir: string,
  calls: WorkerCall[],
): Promise<WorkerStep[]> {
  rmSync(dataDir, { recursive: true, force: true });
  const made: ThrowawayNetns[] = [];
  try {
    for (const n of names) made.push(createThrowawayNetns("", { name: n }));
    const script: WorkerScript = { mode, binDir: BIN, containers: names.slice(1), calls };
    const proc = Bun.spawn(["ip", "netns", "exec", names[0]!, BUN, WORKER], {
      stdin: new TextEncoder().encode(JSON.stringify(script)),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) throw new Error(`worker (${mode}) exited ${code}: ${err}`);
    return JSON.parse(out) as WorkerStep[];
  } finally {
    for (const ns of made) deleteThrowawayNetns(ns);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The transcript with the random names (veth names, MACs) numbered in order of first
 * appearance, then each state list sorted, one string per step.
 */
function normalize(steps: WorkerStep[], names: string[]): string[] {
  const tables = new Map<string, Map<string, string>>();
  const number =
    (kind: string) =>
    (m: string): string => {
      const t = tables.get(kind) ?? new Map<string, string>();
      tables.set(kind, t);
      if (!t.has(m)) t.set(m, `<${kind}${t.size}>`);
      return t.get(m)!;
    };
  let text = JSON.stringify(steps);
  names.forEach((n, i) => (text = text.replaceAll(n, `<ns${i}>`)));
  text = text
    .replace(/\bveth[0-9a-f]{8}\b/g, number("veth"))
    .replace(/\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b/gi, number("mac"));
  const sorted = (v: unknown): unknown => (Array.isArray(v) ? [...(v as string[])].sort() : v);
  return (JSON.parse(text) as WorkerStep[]).map((s) =>
    JSON.stringify(
      { ...s, state: JSON.parse(JSON.stringify(s.state), (_k, v: unknown) => sorted(v)) as unknown },
      null,
      1,
    ),
  );
}

const range4 = { subnet: "198.18.40.0/24" };
const range6 = { subnet: "2001:db8:40::/64" };

function scenario(plugin: string, version: string, dataDir: string, ns: string[]): WorkerCall[] {
  const ipam = { type: "host-local", ranges: [[range4], [range6]], dataDir };
  const base: Record<string, unknown> =
    plugin === "bridge"
      ? { bridge: "tscnifp0", isGateway: true, ipMasq: false, ipam }
      : plugin === "ptp"
        ? { ipam }
        : plugin === "host-local"
          ? { ipam }
          : {};
  const config = { cniVersion: version, name: `fp-${plugin}`, type: plugin, ...base };
  const ctr = (i: number): string => `/var/run/netns/${ns[1 + i]}`;
  const env = (command: string, i: number, extra: Record<string, string> = {}): Record<string, string> => ({
    CNI_COMMAND: command,
    CNI_CONTAINERID: `fp-c${i}`,
    CNI_NETNS: ctr(i),
    CNI_IFNAME: "eth0",
    CNI_PATH: BIN,
    ...extra,
  });
  const calls: WorkerCall[] = [
    { plugin, env: env("VERSION", 0), config },
    { plugin, env: env("ADD", 0), config },
    { plugin, env: env("ADD", 1), config },
    // The name is taken now (ADD-4), a config that is not JSON (code 6), a missing netns (code 4).
    { plugin, env: env("ADD", 0, { CNI_CONTAINERID: "fp-dup" }), config },
    { plugin, env: env("ADD", 0), config: "{not json" },
    { plugin, env: env("ADD", 1, { CNI_NETNS: "" }), config },
    { plugin, env: env("ADD", 1, { CNI_NETNS: "/proc/self/ns/net" }), config },
  ];
  if (version !== "0.3.1") calls.push({ plugin, env: env("CHECK", 0), config, prevFrom: 1 });
  calls.push({ plugin, env: env("DEL", 0), config }, { plugin, env: env("DEL", 0), config });
  if (version === "1.1.0") {
    calls.push({ plugin, env: { CNI_COMMAND: "STATUS", CNI_PATH: BIN }, config });
    calls.push({
      plugin,
      env: { CNI_COMMAND: "GC", CNI_PATH: BIN },
      config: { ...config, "cni.dev/valid-attachments": [] },
    });
  }
  calls.push({ plugin, env: env("DEL", 1), config });
  return calls;
}

run("our plugins run in process exactly as they run exec'd", () => {
  for (const plugin of ["bridge", "ptp", "host-local", "loopback"]) {
    // Old versions (no CHECK before 0.4.0, no GC or STATUS) for the plugins with a kernel side.
    for (const version of plugin === "bridge" || plugin === "ptp" ? ["1.1.0", "0.3.1"] : ["1.1.0"]) {
      test(`${plugin} at ${version} prints the same, exits the same and leaves the same kernel both ways`, async () => {
        const tag = `tscni-fpd-${Math.random().toString(36).slice(2, 8)}`;
        const names = [`${tag}-h`, `${tag}-c0`, `${tag}-c1`];
        const dataDir = join(mkdtempSync(join(tmpdir(), "tscni-fpd-")), "ipam");
        try {
          const calls = scenario(plugin, version, dataDir, names);
          const exec = await side("exec", names, dataDir, calls);
          const inProcess = await side("in-process", names, dataDir, calls);
          // A scenario that never succeeded would prove nothing.
          expect(exec.filter((s) => s.failure === null).length).toBeGreaterThan(3);
          expect(exec.map((s) => s.failure)).toEqual(inProcess.map((s) => s.failure));
          const [a, b] = [normalize(exec, names), normalize(inProcess, names)];
          // Step by step, so that a difference shows as one call's output and state.
          for (let i = 0; i < a.length; i++) expect(`step ${i}: ${b[i]}`).toEqual(`step ${i}: ${a[i]}`);
        } finally {
          rmSync(join(dataDir, ".."), { recursive: true, force: true });
        }
      });
    }
  }
});
