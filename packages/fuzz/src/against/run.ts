/**
 * Runs a differential target against a command (issue 15, `--against CMD`): each chunk of
 * generated cases goes through ONE process of the command, each answer is judged against
 * ours, and the first case of each new class of disagreement is shrunk with fast-check
 * (replaying that case by its seed and path, asking the command one line per candidate)
 * and kept, with the command, so `cni fuzz replay` can judge it again.
 */
import fc from "fast-check";
import type { Failure, RunOptions, RunReport } from "../run.ts";
import type { Target } from "../target.ts";
import { commandOracle, type Oracle } from "./command.ts";
import { type Differential, judgeAnswers } from "./differential.ts";

/** What a differential run did: a run report plus how many cases each allowance accepted. */
export interface AgainstReport extends RunReport {
  readonly against: string;
  readonly allowed: Readonly<Record<string, number>>;
}

const asOracle = (other: string | Oracle): Oracle => (typeof other === "string" ? commandOracle(other) : other);

/** The differential as a plain target: one case judged by asking the other side one line (shrinking, replay). */
export function againstTarget<I>(d: Differential<I>, other: string | Oracle): Target<I> {
  const oracle = asOracle(other);
  return {
    name: d.name,
    summary: d.summary,
    arbitrary: d.arbitrary,
    check(input) {
      const [theirs] = oracle.ask([d.request(input)]);
      const v = judgeAnswers(d, input, d.ours(input), theirs ?? { broken: "no answer" });
      return v.agree ? undefined : v.why;
    },
    save: d.save,
    load: d.load,
  };
}

/** A disagreement's class: its line with numbers and quoted details normalised (as runTarget keys). */
export function disagreementClass(why: string): string {
  return why
    .replace(/\((?:not JSON|exit|non-Error|[A-Za-z]*Error)[^)]*\)/g, "(…)")
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d+/g, "N")
    .slice(0, 160);
}

/** Runs `d` against the other side (a command, through `sh -c`, or an oracle) as `opts` say. */
export function runAgainst<I>(d: Differential<I>, other: string | Oracle, opts: RunOptions): AgainstReport {
  const oracle = asOracle(other);
  const chunk = opts.chunk ?? 500;
  const limit = opts.cases ?? (opts.seconds === undefined ? 10_000 : Number.POSITIVE_INFINITY);
  const deadline = opts.seconds === undefined ? Number.POSITIVE_INFINITY : performance.now() + opts.seconds * 1000;
  const started = performance.now();
  const single = againstTarget(d, oracle);
  const seen = new Set<string>();
  const failures = new Map<string, Failure>();
  const allowed: Record<string, number> = {};
  let cases = 0;
  for (let k = 0; cases < limit && performance.now() < deadline && failures.size < (opts.maxFailures ?? 10); k++) {
    const seed = (opts.seed + k * 7919) | 0;
    const inputs: I[] = [];
    fc.check(
      fc.property(d.arbitrary, (x) => {
        inputs.push(x);
        return true;
      }),
      { seed, numRuns: Math.min(chunk, limit - cases) },
    );
    const theirs = oracle.ask(inputs.map(d.request));
    for (const [i, input] of inputs.entries()) {
      const v = judgeAnswers(d, input, d.ours(input), theirs[i] ?? { broken: "no answer" });
      if (v.agree) {
        if (v.allowance !== undefined) allowed[v.allowance] = (allowed[v.allowance] ?? 0) + 1;
        continue;
      }
      const key = disagreementClass(v.why);
      if (seen.has(key) || failures.size >= (opts.maxFailures ?? 10)) continue;
      seen.add(key);
      // Replays exactly case i of this chunk (same seed, path "i") and shrinks it.
      const details = fc.check(
        fc.property(d.arbitrary, (x) => single.check(x) === undefined),
        { seed, path: String(i), endOnFailure: false },
      );
      const found = details.failed ? details.counterexample?.[0] : undefined;
      const failure = found === undefined ? undefined : single.check(found);
      const minimal =
        failure === undefined || found === undefined ? { failure: v.why, input } : { failure, input: found };
      const minKey = disagreementClass(minimal.failure);
      seen.add(minKey);
      if (!failures.has(minKey))
        failures.set(minKey, {
          target: d.name,
          seed,
          failure: minimal.failure,
          input: d.save(minimal.input),
          shrinks: found === undefined ? 0 : details.numShrinks,
        });
    }
    cases += inputs.length;
    opts.onProgress?.({ target: d.name, cases, ms: performance.now() - started, failures: failures.size });
  }
  return {
    target: d.name,
    seed: opts.seed,
    cases,
    ms: performance.now() - started,
    failures: failures.size,
    failureList: [...failures.values()],
    against: oracle.command,
    allowed,
  };
}
