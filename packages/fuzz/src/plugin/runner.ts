/**
 * `cni fuzz plugin`'s loop: cases drawn from one seed for each plugin in turn, run in a
 * sandbox, counted per plugin and failure kind; the distinct failures are kept for replay
 * files. Pure over the {@link Sandbox} port.
 */
import { caseArbitrary, drawCase, type PluginCase } from "./case.ts";
import { FAILURE_KINDS, type FailureKind } from "./judge.ts";
import { runCase, type CaseState } from "./run-case.ts";
import type { Sandbox } from "./sandbox.ts";

/** How long, which plugins and from which seed. */
export interface PluginRunOptions {
  readonly plugins: readonly string[];
  readonly seed: number;
  /** Cases per plugin (default 200 when no time budget is given). */
  readonly cases?: number;
  /** A time budget for the whole run, in seconds. */
  readonly seconds?: number;
  /** Failures kept (for replay files) per plugin and kind (default 3). */
  readonly keepPerKind?: number;
  readonly onProgress?: (p: PluginProgress) => void;
  /** Called with each kept failure as it is found (so an interrupted run still saved it). */
  readonly onFailure?: (f: PluginFailure) => void;
  /** Stop early (Ctrl-C). */
  readonly stopped?: () => boolean;
}

/** Where a run is. */
export interface PluginProgress {
  readonly cases: number;
  readonly ms: number;
  readonly failures: number;
}

/** One plugin's row of the table. */
export interface PluginRow {
  cases: number;
  kinds: Record<FailureKind, number>;
}

/** A kept failure: the case, its kind and detail, and where it came from. */
export interface PluginFailure {
  readonly case: PluginCase;
  readonly kind: FailureKind;
  readonly detail: string;
  readonly seed: number;
  readonly index: number;
}

/** The outcome of a run. */
export interface PluginRunReport {
  readonly seed: number;
  readonly cases: number;
  readonly ms: number;
  readonly rows: ReadonlyMap<string, PluginRow>;
  readonly failures: readonly PluginFailure[];
  /** Failing cases (a case with two kinds counts once). */
  readonly failing: number;
}

const emptyKinds = (): Record<FailureKind, number> =>
  Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as Record<FailureKind, number>;

/** Runs the plugins' cases round-robin in `sb` until the case count or the time budget is spent. */
export async function runPluginFuzz(sb: Sandbox, opts: PluginRunOptions): Promise<PluginRunReport> {
  const perPlugin = opts.cases ?? (opts.seconds === undefined ? 200 : Number.POSITIVE_INFINITY);
  const deadline = opts.seconds === undefined ? Number.POSITIVE_INFINITY : performance.now() + opts.seconds * 1000;
  const keep = opts.keepPerKind ?? 3;
  const started = performance.now();
  const arbs = new Map(opts.plugins.map((p) => [p, caseArbitrary(p)]));
  const rows = new Map<string, PluginRow>(opts.plugins.map((p) => [p, { cases: 0, kinds: emptyKinds() }]));
  const failures: PluginFailure[] = [];
  const seen = new Map<string, number>();
  const state: CaseState = { baseline: undefined };
  let cases = 0;
  let failing = 0;
  for (let index = 0; index < perPlugin; index++) {
    for (const plugin of opts.plugins) {
      if (performance.now() >= deadline || opts.stopped?.() === true) return done();
      const arb = arbs.get(plugin);
      const row = rows.get(plugin);
      if (arb === undefined || row === undefined) continue;
      const c = drawCase(arb, opts.seed, plugin, index);
      const findings = await runCase(sb, c, state);
      row.cases++;
      cases++;
      if (findings.length > 0) failing++;
      for (const f of findings) {
        row.kinds[f.kind]++;
        const key = `${plugin} ${f.kind}`;
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        if (n >= keep) continue;
        const failure = { case: c, kind: f.kind, detail: f.detail, seed: opts.seed, index };
        failures.push(failure);
        opts.onFailure?.(failure);
      }
      if (cases % 25 === 0) opts.onProgress?.({ cases, ms: performance.now() - started, failures: failing });
    }
  }
  return done();

  function done(): PluginRunReport {
    return { seed: opts.seed, cases, ms: performance.now() - started, rows, failures, failing };
  }
}

/** The table: one row per plugin, a column per failure kind, then the rate line. */
export function formatTable(r: PluginRunReport): string {
  const head = ["plugin", "cases", ...FAILURE_KINDS];
  const body = [...r.rows].map(([p, row]) => [p, String(row.cases), ...FAILURE_KINDS.map((k) => String(row.kinds[k]))]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  const rate = (r.cases * 1000) / Math.max(r.ms, 1);
  return `${[line(head), ...body.map(line)].join("\n")}\n${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s, ${rate.toFixed(1)} cases/s, ${r.failing} failing cases (seed ${r.seed})\n`;
}
