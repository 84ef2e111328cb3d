/**
 * Runs a target for a number of cases or a time budget, in chunks of fast-check runs with
 * seeds derived from one seed (so a run replays), shrinking each failure to a minimal
 * input and keeping the distinct ones.
 */
import fc from "fast-check";
import type { Target } from "./target.ts";

/** How long and from which seed to run. */
export interface RunOptions {
  readonly seed: number;
  /** Stop after this many cases (default 10,000 when no time budget is given). */
  readonly cases?: number;
  /** Stop after this many seconds. */
  readonly seconds?: number;
  /** Cases per chunk; progress is reported after each. */
  readonly chunk?: number;
  /** Stop after this many distinct failures. */
  readonly maxFailures?: number;
  readonly onProgress?: (p: Progress) => void;
}

/** Where a run is. */
export interface Progress {
  readonly target: string;
  readonly cases: number;
  readonly ms: number;
  readonly failures: number;
}

/** A failure, minimised, with what replays it. */
export interface Failure {
  readonly target: string;
  readonly seed: number;
  readonly failure: string;
  /** The minimal case in the target's saved form. */
  readonly input: unknown;
  readonly shrinks: number;
}

/** What a run did. */
export interface RunReport extends Progress {
  readonly seed: number;
  readonly failureList: readonly Failure[];
}

/** Runs `target` as `opts` say. */
export function runTarget<I>(target: Target<I>, opts: RunOptions): RunReport {
  const chunk = opts.chunk ?? 500;
  const limit = opts.cases ?? (opts.seconds === undefined ? 10_000 : Number.POSITIVE_INFINITY);
  const deadline = opts.seconds === undefined ? Number.POSITIVE_INFINITY : performance.now() + opts.seconds * 1000;
  const started = performance.now();
  const failures = new Map<string, Failure>();
  let cases = 0;
  for (let k = 0; cases < limit && performance.now() < deadline && failures.size < (opts.maxFailures ?? 10); k++) {
    const seed = (opts.seed + k * 7919) | 0;
    const numRuns = Math.min(chunk, limit - cases);
    const details = fc.check(
      fc.property(target.arbitrary, (input) => target.check(input) === undefined),
      { seed, numRuns, endOnFailure: false },
    );
    cases += details.numRuns;
    const found = details.failed ? details.counterexample?.[0] : undefined;
    if (details.failed && found !== undefined) {
      const failure = target.check(found) ?? `failed only during the run: ${String(details.errorInstance)}`;
      const key = failure.replace(/\d+/g, "N").slice(0, 160);
      if (!failures.has(key))
        failures.set(key, {
          target: target.name,
          seed,
          failure,
          input: target.save(found),
          shrinks: details.numShrinks,
        });
    }
    opts.onProgress?.({ target: target.name, cases, ms: performance.now() - started, failures: failures.size });
  }
  return {
    target: target.name,
    seed: opts.seed,
    cases,
    ms: performance.now() - started,
    failures: failures.size,
    failureList: [...failures.values()],
  };
}

/** Judges one saved case again: the failure line, or undefined when it now holds. */
export function replay<I>(target: Target<I>, saved: unknown): string | undefined {
  return target.check(target.load(saved));
}
