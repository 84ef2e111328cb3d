/**
 * Benchmark (not a test): the per-exec cold path of several builds and the reference in
 * ONE interleaved run (issue 11 items 3 and 4(a)). Each contender is a directory holding
 * plugin executables (`cni` and its links, or `ref` for the reference Go plugins in
 * /usr/lib/cni at cniVersion 1.0.0); each gets its own bridge, subnets and interface name
 * in the same container namespaces, and the contenders' order rotates from one container
 * to the next, so machine noise falls on all of them alike.
 *
 *   bun scripts/bench-exec.ts [DIR|ref ...]     (root; default: ref dist/bin)
 *
 * Per plugin (bridge, ptp): N sequential ADDs, CHECKs and DELs per round (wall time from
 * spawn to reaped exit, and the child's CPU time, user + system, from its rusage); then
 * VERSION and a trivial compiled Bun binary (Bun's own start floor, built here with the
 * flags of scripts/build.ts); then peak RSS of ADD, CHECK, DEL and VERSION through GNU
 * time. Prints the load average before and after. BENCH_SEQ=N containers (default 20),
 * BENCH_ROUNDS (default 2), BENCH_VERSIONS (VERSION calls per contender, default 40).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const SEQ = Number(process.env.BENCH_SEQ ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 40);
const REF = "/usr/lib/cni";
const PLUGINS = ["bridge", "ptp"] as const;

interface Who {
  label: string;
  dir: string;
  ref: boolean;
  n: number;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
const p95 = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.95 * xs.length))] ?? NaN;
const fmt = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : "-");
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function contenders(args: readonly string[]): Who[] {
  const list = args.length > 0 ? args : ["ref", join(ROOT, "dist/bin")];
  return list.map((a, n) =>
    a === "ref"
      ? { label: "ref", dir: REF, ref: true, n }
      : { label: a.replace(/\/+$/, "").split("/").slice(-2).join("/"), dir: a, ref: false, n },
  );
}

function config(w: Who, plugin: string, work: string): Record<string, unknown> {
  return {
    cniVersion: w.ref ? "1.0.0" : "1.1.0",
    name: `bx-${plugin}-${w.n}`,
    type: plugin,
    ...(plugin === "bridge" ? { bridge: `tscnibx${w.n}`, isGateway: true } : {}),
    ipam: {
      type: "host-local",
      ranges: [[{ subnet: `198.18.${plugin === "bridge" ? 80 + w.n : 100 + w.n}.0/24` }]],
      dataDir: join(work, `ipam-${w.n}`),
    },
  };
}

function env(w: Who, command: string, i: number, netns: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    CNI_COMMAND: command,
    CNI_CONTAINERID: `bx-${i}`,
    CNI_NETNS: netns,
    CNI_IFNAME: `eth${w.n}`,
    CNI_ARGS: "",
    CNI_PATH: w.dir,
  };
}

/** One call as a runtime makes it; wall ms and the child's CPU ms. */
async function call(
  argv: string[],
  e: Record<string, string>,
  stdin: string,
): Promise<{ ms: number; cpu: number; out: string }> {
  const t0 = performance.now();
  const proc = Bun.spawn(argv, { env: e, stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const ms = performance.now() - t0;
  if (code !== 0)
    throw new Error(
      `${argv.join(" ")} ${e.CNI_COMMAND}: exit ${code}: ${out}${await new Response(proc.stderr).text()}`,
    );
  const cpu = proc.resourceUsage()?.cpuTime;
  return { ms, cpu: cpu === undefined ? NaN : Number(cpu.total) / 1000, out };
}

/**
 * Peak RSS in MiB and minor page faults of one call, through GNU time (the spawn's rusage
 * would be the harness's RSS). Faults count the pages a call touches, whatever the page
 * cache holds; RSS also counts the cached neighbours each fault maps (fault-around).
 */
async function rss(
  argv: string[],
  e: Record<string, string>,
  stdin: string,
  work: string,
  faults: number[],
): Promise<number> {
  const out = join(work, "rss");
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%M %R", "-o", out, ...argv], {
    env: e,
    stdin: new TextEncoder().encode(stdin),
    stdout: "ignore",
    stderr: "ignore",
  });
  await proc.exited;
  const [kib, minor] = (readFileSync(out, "utf8").trim().split("\n").pop() ?? "").split(" ");
  faults.push(Number(minor));
  return Number(kib) / 1024;
}

/** Builds the start floor: a compiled Bun binary that writes "{}" and exits, with build.ts's flags. */
function buildFloor(work: string): string {
  const src = join(work, "floor.ts");
  writeFileSync(src, 'await Bun.write(Bun.stdout, "{}\\n");\n');
  const out = join(work, "floor");
  const b = Bun.spawnSync(
    [
      process.execPath,
      "build",
      "--compile",
      "--bytecode",
      "--format=esm",
      "--minify",
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
      src,
      "--outfile",
      out,
    ],
    { stdout: "ignore", stderr: "inherit" },
  );
  if (b.exitCode !== 0) throw new Error("could not build the floor binary");
  return out;
}

async function inner(): Promise<void> {
  const who = contenders(process.argv.slice(2).filter((a) => a !== "--inner"));
  const netns = (process.env.BENCH_NETNS ?? "").split(",");
  const work = process.env.BENCH_DIR ?? "";
  mkdirSync(work, { recursive: true });
  const loadBefore = load();
  const t: Record<string, { ms: number[]; cpu: number[] }> = {};
  const put = (key: string, s: { ms: number; cpu: number }) => {
    const e = (t[key] ??= { ms: [], cpu: [] });
    e.ms.push(s.ms);
    e.cpu.push(s.cpu);
  };
  const rot = (i: number): Who[] => who.map((_, k) => who[(i + k) % who.length]!);
  const exe = (w: Who, plugin: string) => [join(w.dir, plugin)];

  for (let round = 0; round < ROUNDS; round++) {
    for (const plugin of PLUGINS) {
      const results = new Map<string, string>();
      for (const verb of ["ADD", "CHECK", "DEL"] as const) {
        for (let i = 0; i < SEQ; i++) {
          for (const w of rot(i + round)) {
            const prev = results.get(`${w.n}/${i}`);
            const stdin = JSON.stringify(
              verb === "ADD"
                ? config(w, plugin, work)
                : { ...config(w, plugin, work), prevResult: JSON.parse(prev ?? "{}") },
            );
            const s = await call(exe(w, plugin), env(w, verb, i, netns[i]!), stdin);
            if (verb === "ADD") results.set(`${w.n}/${i}`, s.out);
            put(`${w.label} ${plugin} ${verb}`, s);
          }
        }
      }
    }
  }

  const floor = buildFloor(work);
  for (let i = 0; i < VERSIONS; i++) {
    for (const w of rot(i))
      put(
        `${w.label} VERSION`,
        await call(exe(w, "bridge"), { PATH: process.env.PATH ?? "", CNI_COMMAND: "VERSION" }, "{}"),
      );
    put("floor", await call([floor], {}, ""));
  }

  const peak: Record<string, number[]> = {};
  const faults: Record<string, number[]> = {};
  const f = (key: string): number[] => (faults[key] ??= []);
  for (let i = 0; i < 5; i++) {
    for (const w of rot(i)) {
      const c = config(w, "bridge", work);
      const e = (verb: string) => env(w, verb, 1000 + i, netns[i]!);
      const added = await call(exe(w, "bridge"), e("ADD"), JSON.stringify(c));
      await call(exe(w, "bridge"), e("DEL"), JSON.stringify(c));
      (peak[`${w.label} ADD`] ??= []).push(
        await rss(exe(w, "bridge"), e("ADD"), JSON.stringify(c), work, f(`${w.label} ADD`)),
      );
      (peak[`${w.label} CHECK`] ??= []).push(
        await rss(
          exe(w, "bridge"),
          e("CHECK"),
          JSON.stringify({ ...c, prevResult: JSON.parse(added.out) }),
          work,
          f(`${w.label} CHECK`),
        ),
      );
      (peak[`${w.label} DEL`] ??= []).push(
        await rss(exe(w, "bridge"), e("DEL"), JSON.stringify(c), work, f(`${w.label} DEL`)),
      );
      (peak[`${w.label} VERSION`] ??= []).push(
        await rss(exe(w, "bridge"), { CNI_COMMAND: "VERSION" }, "{}", work, f(`${w.label} VERSION`)),
      );
    }
    (peak.floor ??= []).push(await rss([floor], {}, "", work, f("floor")));
  }

  const labels = who.map((w) => w.label);
  console.log(
    `per-exec, interleaved: ${labels.join(", ")}; ${SEQ} containers x ${ROUNDS} rounds; load average before ${loadBefore}, after ${load()}`,
  );
  console.log(
    `\nmedian wall ms (p95) / median CPU ms (user + system)\n\n| call | ${labels.join(" | ")} |\n|---|${labels.map(() => "---|").join("")}`,
  );
  const keys = [...PLUGINS.flatMap((p) => ["ADD", "CHECK", "DEL"].map((v) => `${p} ${v}`)), "VERSION"];
  for (const k of keys)
    console.log(
      `| ${k} | ${labels
        .map((l) => {
          const s = t[`${l} ${k}`]!;
          return `${fmt(median(s.ms))} (${fmt(p95(s.ms))}) / ${fmt(median(s.cpu))}`;
        })
        .join(" | ")} |`,
    );
  console.log(
    `| Bun floor (trivial compiled binary) | ${fmt(median(t.floor!.ms))} (${fmt(p95(t.floor!.ms))}) / ${fmt(median(t.floor!.cpu))} |`,
  );
  console.log(
    `\npeak RSS MiB (median of 5 / max) and minor page faults (median), bridge\n\n| call | ${labels.join(" | ")} |\n|---|${labels.map(() => "---|").join("")}`,
  );
  for (const v of ["ADD", "CHECK", "DEL", "VERSION"])
    console.log(
      `| ${v} | ${labels.map((l) => `${fmt(median(peak[`${l} ${v}`]!))} / ${fmt(Math.max(...peak[`${l} ${v}`]!))}, ${median(faults[`${l} ${v}`]!)} faults`).join(" | ")} |`,
    );
  console.log(
    `| Bun floor | ${fmt(median(peak.floor!))} / ${fmt(Math.max(...peak.floor!))}, ${median(faults.floor!)} faults |`,
  );
  const json: Record<string, number> = {};
  for (const [k, s] of Object.entries(t))
    Object.assign(json, { [`${k} ms`]: median(s.ms), [`${k} cpu`]: median(s.cpu) });
  for (const [k, s] of Object.entries(peak)) json[`${k} rssMiB`] = median(s);
  for (const [k, s] of Object.entries(faults)) json[`${k} faults`] = median(s);
  console.log(`\nJSON ${JSON.stringify(json)}`);
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench-exec: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  for (const w of contenders(process.argv.slice(2))) {
    if (!existsSync(join(w.dir, "bridge"))) {
      console.error(`bench-exec: no bridge in ${w.dir}`);
      process.exit(1);
    }
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  const code = await runInsideThrowawayHost("bx", Math.max(SEQ, 5), [
    process.execPath,
    "run",
    import.meta.path,
    ...process.argv.slice(2),
    "--inner",
  ]);
  if (code !== 0) process.exitCode = code;
}

if (process.argv.includes("--inner")) await inner();
else await outer();
