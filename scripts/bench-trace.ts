/**
 * Benchmark (not a test): where one plugin call's time goes, phase by phase. Runs N
 * warm-up ADDs, then N traced ADDs, CHECKs and DELs (`TSCNI_TRACE=1`) of the compiled
 * binary against the real kernel in throwaway namespaces, and prints for every phase the
 * median of its start (ms since the process started) and of its duration, and the
 * median wall time as the harness sees it. Root only, like `bench.ts`.
 *
 *   bun scripts/bench-trace.ts [plugin=bridge] [runs=10]
 *
 * BENCH_IPMASQ=1 sets `ipMasq` (bridge and ptp). BENCH_BIN=DIR traces another build (a directory with `cni` and its links). The Nth
 * container is traced after N-1 others exist, as in the figures of docs/PERFORMANCE.md.
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { runPlugin } from "./lib/run-plugin.ts";

const BIN = process.env.BENCH_BIN ?? new URL("../dist/bin", import.meta.url).pathname;
const PLUGIN = process.argv[2] ?? "bridge";
const RUNS = Number(process.argv[3] ?? 10);
const WARM = RUNS - 1;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Phase label to its starts and durations, over every traced call of one command. */
type Phases = Map<string, { starts: number[]; took: number[] }>;

/** Adds one call's stderr trace to `phases`; a phase seen twice in one call is numbered. */
function record(phases: Phases, stderr: string, wall: number): void {
  const seen = new Map<string, number>();
  const add = (label: string, start: number, took?: number) => {
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    const key = n > 1 ? `${label} #${n}` : label;
    const entry = phases.get(key) ?? { starts: [], took: [] };
    entry.starts.push(start);
    if (took !== undefined) entry.took.push(took);
    phases.set(key, entry);
  };
  for (const line of stderr.split("\n")) {
    const m = /^\[tscni\]\s+([\d.]+) ms\s+(?:([\d.]+) ms )?(.*)$/.exec(line);
    if (m === null) continue;
    // Namespaces, veth names and the RSS figures differ per call: one label for all.
    const label = (m[3] ?? "")
      .replace(/\/var\/run\/netns\/\S+/g, "<ctr>")
      .replace(/veth[0-9a-f]{8}/g, "<veth>")
      .replace(/^(exit|plugin code loaded), .*/, "$1")
      .replace(/: [a-z.,-]+$/, "");
    add(label, Number(m[1]), m[2] === undefined ? undefined : Number(m[2]));
  }
  add("wall (harness)", wall);
}

function print(command: string, phases: Phases): void {
  console.log(
    `\n${PLUGIN} ${command}: medians of ${phases.get("wall (harness)")?.starts.length ?? 0} calls (start ms, duration ms, phase)`,
  );
  const rows = [...phases].sort((a, b) => median(a[1].starts) - median(b[1].starts));
  for (const [label, { starts, took }] of rows) {
    console.log(
      `${median(starts).toFixed(2).padStart(8)} ${took.length > 0 ? median(took).toFixed(2).padStart(7) : "       "}  ${label}`,
    );
  }
}

async function inner(): Promise<void> {
  const containers = (process.env.BENCH_NETNS ?? "").split(",");
  const config = {
    cniVersion: "1.1.0",
    name: `trace-${PLUGIN}`,
    type: PLUGIN,
    ...(PLUGIN === "bridge" ? { bridge: "tscnib0", isGateway: true } : {}),
    ...(process.env.BENCH_IPMASQ === "1" ? { ipMasq: true } : {}),
    ipam: {
      type: "host-local",
      ranges: [[{ subnet: "198.18.64.0/24" }]],
      dataDir: join(process.env.BENCH_DIR ?? "", "ipam"),
    },
  };
  const call = async (command: string, i: number, stdin: unknown) => {
    const t0 = performance.now();
    const { stdout, stderr, code } = await runPlugin(
      join(BIN, PLUGIN),
      { command, containerID: `t${i}`, netns: containers[i] ?? "", path: BIN },
      stdin,
      { env: { PATH: process.env.PATH ?? "", TSCNI_TRACE: "1" } },
    );
    const wall = performance.now() - t0;
    if (code !== 0) throw new Error(`${PLUGIN} ${command} failed: ${stdout}${stderr}`);
    return { stdout, stderr, wall };
  };
  const results: string[] = [];
  const traced: Record<string, Phases> = { ADD: new Map(), CHECK: new Map(), DEL: new Map() };
  for (const [i] of containers.entries()) {
    const r = await call("ADD", i, config);
    results.push(r.stdout);
    if (i >= WARM) record(traced.ADD!, r.stderr, r.wall);
  }
  for (const command of ["CHECK", "DEL"] as const) {
    for (const [i] of containers.entries()) {
      const r = await call(command, i, { ...config, prevResult: JSON.parse(results[i] ?? "{}") });
      if (i >= WARM) record(traced[command]!, r.stderr, r.wall);
    }
  }
  console.log(
    `${PLUGIN} (${BIN}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  for (const [command, phases] of Object.entries(traced)) print(command, phases);
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench-trace: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  const code = await runInsideThrowawayHost("trace", WARM + RUNS, [
    process.execPath,
    "run",
    import.meta.path,
    PLUGIN,
    String(RUNS),
    "--inner",
  ]);
  if (code !== 0) process.exitCode = code;
}

if (process.argv.includes("--inner")) await inner();
else await outer();
