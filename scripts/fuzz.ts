/**
 * `npm run fuzz`: the fuzz campaign (issue 15 item 3). One seed drives it all: a million
 * cases split between the `config` and `convert` targets, each cut into shards whose seeds
 * derive from the campaign seed, run by one worker process per core; then a bounded
 * `cni fuzz plugin` run against our binary's plugins and Debian's reference plugins.
 * A progress line per shard, a summary table at the end, every failure file in one
 * directory; exit 1 when anything failed in our code (the reference's failures are
 * reported, not ours to fix). Not part of `npm test` (docs/FUZZING.md).
 *
 *   bun run scripts/fuzz.ts [--seed N] [--cases N] [--shards N] [--workers N]
 *                           [--out DIR] [--plugin-cases N | --plugin-seconds S] [--no-plugins]
 *
 * The plugin run is bounded by time (300 s per directory) unless --plugin-cases is given:
 * a plugin case execs a plugin under strace in fresh namespaces, about a second each here.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const MAIN = join(ROOT, "packages/cli/src/main.ts");
const BUN = process.execPath;
const TARGETS = ["config", "convert"] as const;
/** The Debian reference plugins (the compat tests drive them too). */
const REFERENCE_DIR = "/usr/lib/cni";

interface Options {
  seed: number;
  cases: number;
  shards: number;
  workers: number;
  out: string;
  /** Cases per plugin, or 0 for a time budget of `pluginSeconds` per plugin directory. */
  pluginCases: number;
  pluginSeconds: number;
  plugins: boolean;
}

function options(argv: readonly string[]): Options {
  const o: Options = {
    seed: Number(process.env.FUZZ_SEED ?? 15),
    cases: 1_000_000,
    shards: 10,
    workers: 2,
    out: "",
    pluginCases: 0,
    pluginSeconds: 300,
    plugins: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    if (name === "--no-plugins") {
      o.plugins = false;
      continue;
    }
    const value = argv[++i] ?? "";
    const n = Number(value);
    if (name === "--out") o.out = value;
    else if (!Number.isInteger(n) || n < 0) throw new Error(`${name} needs a whole number, not "${value}"`);
    else if (name === "--seed") o.seed = n;
    else if (name === "--cases") o.cases = n;
    else if (name === "--shards") o.shards = Math.max(1, n);
    else if (name === "--workers") o.workers = Math.max(1, n);
    else if (name === "--plugin-cases") o.pluginCases = n;
    else if (name === "--plugin-seconds") o.pluginSeconds = n;
    else throw new Error(`unknown argument "${name}"`);
  }
  if (!Number.isInteger(o.seed) || o.seed < 0) throw new Error("the seed (FUZZ_SEED) must be a whole number");
  o.out ||= join(ROOT, "fuzz-failures", `campaign-${o.seed}`);
  return o;
}

/** Shard `i` of target `t`'s seed: a mix of the campaign seed, so one seed replays every shard. */
export function shardSeed(seed: number, target: number, i: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(target + 1, 0xc2b2ae35) ^ Math.imul(i + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return (h ^ (h >>> 15)) & 0x7fffffff;
}

interface Shard {
  target: string;
  index: number;
  seed: number;
  cases: number;
}

interface ShardResult extends Shard {
  done: number;
  failures: number;
  seconds: number;
  exit: number;
}

/** Runs one shard as its own `cni fuzz` process and reads its closing line. */
async function runShard(s: Shard, out: string): Promise<ShardResult> {
  const started = performance.now();
  const args = [MAIN, "fuzz", s.target, "--seed", String(s.seed), "--cases", String(s.cases), "--out", out];
  const p = Bun.spawn([BUN, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exit] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  const m = /: (\d+) cases in [\d.]+ s, (\d+) failures/.exec(stdout);
  const seconds = (performance.now() - started) / 1000;
  if (m === null) {
    process.stderr.write(`shard ${s.target}#${s.index} ended without a summary (exit ${exit}):\n${stdout}${stderr}\n`);
    return { ...s, done: 0, failures: 1, seconds, exit };
  }
  for (const line of stdout.split("\n")) if (line.startsWith("FAIL") || line.startsWith("  minimal")) console.log(line);
  return { ...s, done: Number(m[1]), failures: Number(m[2]), seconds, exit };
}

/** The shards of the campaign, in the order the workers take them (targets interleaved). */
export function planShards(o: Pick<Options, "seed" | "cases" | "shards">): Shard[] {
  const shards: Shard[] = [];
  const perTarget = Math.floor(o.cases / TARGETS.length);
  for (let i = 0; i < o.shards; i++)
    TARGETS.forEach((target, t) => {
      const base = Math.floor(perTarget / o.shards);
      const cases = base + (i < perTarget % o.shards ? 1 : 0);
      if (cases > 0) shards.push({ target, index: i, seed: shardSeed(o.seed, t, i), cases });
    });
  return shards;
}

async function fuzzTargets(o: Options): Promise<ShardResult[]> {
  const queue = planShards(o);
  const total = queue.length;
  const results: ShardResult[] = [];
  const worker = async (): Promise<void> => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      const r = await runShard(s, o.out);
      results.push(r);
      console.log(
        `[${String(results.length).padStart(String(total).length)}/${total}] ${r.target} shard ${r.index} (seed ${r.seed}): ` +
          `${r.done} cases, ${Math.round(r.done / r.seconds)} cases/s, ${r.failures} failures, ${r.seconds.toFixed(1)} s, load ${loadavg()[0]?.toFixed(2)}`,
      );
    }
  };
  await Promise.all(Array.from({ length: o.workers }, worker));
  return results;
}

interface Row {
  target: string;
  cases: number;
  rate: number;
  failures: number;
  seconds: number;
  ours: boolean;
  note?: string;
  /** The failures that count as ours when some are the reference's behaviour too. */
  counted?: number;
}

/** `cni fuzz plugin DIR` when the verb exists (it is issue 15's fzplugin work). */
async function fuzzPlugins(o: Options): Promise<Row[]> {
  const help = Bun.spawnSync([BUN, MAIN, "fuzz", "plugin", "--help"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (help.exitCode !== 0 || !help.stdout.toString().includes("fuzz plugin")) {
    console.log("plugin run skipped: this build has no `cni fuzz plugin`");
    return [];
  }
  if (!existsSync(join(ROOT, "dist/bin/cni")))
    Bun.spawnSync([BUN, "run", "scripts/build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  const rows: Row[] = [];
  const runs: { ours: boolean; kinds: string[] }[] = [];
  for (const [label, dir, ours] of [
    ["plugin (ours)", join(ROOT, "dist/bin"), true],
    ["plugin (Debian)", REFERENCE_DIR, false],
  ] as const) {
    if (!existsSync(dir)) continue;
    const started = performance.now();
    const out = join(o.out, ours ? "plugin-ours" : "plugin-debian");
    const bound = o.pluginCases > 0 ? ["--cases", String(o.pluginCases)] : ["--seconds", String(o.pluginSeconds)];
    const args = ["fuzz", "plugin", dir, "--seed", String(o.seed), ...bound, "--out", out];
    console.log(`${label}: cni ${args.join(" ")}`);
    const p = Bun.spawn([BUN, MAIN, ...args], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
    const stdout = await new Response(p.stdout).text();
    const exit = await p.exited;
    process.stdout.write(stdout);
    const seconds = (performance.now() - started) / 1000;
    // The verb's closing line: "N cases in S s, R cases/s, F failing cases (seed X)".
    const m = /^(\d+) cases in [\d.]+ s, [\d.]+ cases\/s, (\d+) failing/m.exec(stdout);
    const kinds = [...stdout.matchAll(/^FAIL (\S+) (\S+):/gm)].map((f) => `${f[1]} ${f[2]}`);
    runs.push({ ours, kinds });
    rows.push({
      target: label,
      cases: Number(m?.[1] ?? 0),
      rate: Number(m?.[1] ?? 0) / seconds,
      failures: m === null ? 1 : Number(m[2]),
      seconds,
      ours,
      ...(m === null ? { note: `no summary, exit ${exit}` } : {}),
    });
  }
  // A failure kind the reference shows on the same plugin and seed is the reference's own
  // behaviour (e.g. sbr's DEL leaving its routes in table 100): reported, not counted as ours.
  const reference = new Set(runs.find((r) => !r.ours)?.kinds ?? []);
  const own = rows.find((r) => r.ours);
  const mine = runs.find((r) => r.ours)?.kinds ?? [];
  const shared = [...new Set(mine.filter((k) => reference.has(k)))];
  if (own !== undefined && own.note === undefined && shared.length > 0) {
    own.note = `the reference shares ${shared.join(", ")}`;
    // Counted: the failure lines of a kind the reference does not show.
    own.counted = mine.filter((k) => !reference.has(k)).length;
  }
  return rows;
}

function table(rows: readonly Row[]): string {
  const head = ["target", "cases", "cases/s", "failures", "seconds"];
  const body = rows.map((r) => [
    r.target,
    String(r.cases),
    r.rate < 10 ? r.rate.toFixed(1) : String(Math.round(r.rate)),
    String(r.failures) + (r.note === undefined ? "" : ` (${r.note})`),
    r.seconds.toFixed(1),
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(width[i] ?? 0) : c.padStart(width[i] ?? 0))).join("  ");
  return [line(head), ...body.map(line)].join("\n");
}

async function main(): Promise<number> {
  const o = options(process.argv.slice(2));
  mkdirSync(o.out, { recursive: true });
  const started = performance.now();
  const load0 = loadavg()[0] ?? 0;
  console.log(
    `fuzz campaign: seed ${o.seed}, ${o.cases} cases over ${TARGETS.join(" and ")} in ${o.shards} shards each, ` +
      `${o.workers} workers; failures in ${o.out}`,
  );
  const shards = await fuzzTargets(o);
  const rows: Row[] = TARGETS.map((target) => {
    const mine = shards.filter((s) => s.target === target);
    const cases = mine.reduce((n, s) => n + s.done, 0);
    const seconds = mine.reduce((n, s) => n + s.seconds, 0);
    return {
      target,
      cases,
      rate: cases / Math.max(seconds, 1e-3),
      failures: mine.reduce((n, s) => n + s.failures, 0),
      seconds,
      ours: true,
    };
  });
  const fuzzWall = (performance.now() - started) / 1000;
  if (o.plugins) rows.push(...(await fuzzPlugins(o)));
  const wall = (performance.now() - started) / 1000;
  const load1 = loadavg();
  console.log(`\n${table(rows)}`);
  console.log(
    `(seconds and cases/s per target are per worker process; config+convert wall ${fuzzWall.toFixed(1)} s, ` +
      `${Math.round(shards.reduce((n, s) => n + s.done, 0) / Math.max(fuzzWall, 1e-3))} cases/s overall; ` +
      `campaign wall ${wall.toFixed(1)} s; load average ${load0.toFixed(2)} at start, ${load1.map((l) => l.toFixed(2)).join(" ")} at end)`,
  );
  const summary = {
    date: new Date().toISOString(),
    seed: o.seed,
    fuzzWall,
    wall,
    load: [load0, ...load1],
    rows,
    shards,
  };
  writeFileSync(join(o.out, "campaign.json"), `${JSON.stringify(summary, null, 2)}\n`);
  const ours = rows.filter((r) => r.ours).reduce((n, r) => n + (r.counted ?? r.failures), 0);
  const failed = ours > 0 || shards.some((s) => s.exit > 1);
  console.log(failed ? `FAILED: ${ours} failures in our code (files in ${o.out})` : "no failures in our code");
  return failed ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main();
