/**
 * A fuzz target: what it generates, how one case is judged, and how a case is written to
 * and read from a replay file. `check` never throws: it returns undefined when the case
 * holds and a one-line description of the failure otherwise.
 */
import type fc from "fast-check";
import { CniError } from "@tscni/spec";

/** One fuzz target. */
export interface Target<I> {
  readonly name: string;
  readonly summary: string;
  readonly arbitrary: fc.Arbitrary<I>;
  check(input: I): string | undefined;
  /** The case as JSON for a replay file. */
  save(input: I): unknown;
  /** The case back from a replay file's JSON. */
  load(saved: unknown): I;
}

/** A case slower than this is a hang: the parsers are synchronous, so it is judged after. */
export const SLOW_MS = 2000;

/** What a thrown value is, for a failure line. */
export function describeThrown(e: unknown): string {
  if (e instanceof Error)
    return `${e.name}: ${e.message.slice(0, 300)}${e.stack === undefined ? "" : ` @ ${e.stack.split("\n")[1]?.trim() ?? ""}`}`;
  return `non-Error thrown: ${String(e).slice(0, 200)}`;
}

/**
 * Runs `fn` and judges how it ended: a value, or a CniError with one of `codes` and a
 * message, is fine; any other throw, an error without a message, or a hang is a failure.
 */
export function judge(
  label: string,
  codes: readonly number[],
  fn: () => unknown,
): { value?: unknown; failure?: string } {
  const started = performance.now();
  try {
    const value = fn();
    const ms = performance.now() - started;
    return ms > SLOW_MS ? { failure: `${label}: took ${ms.toFixed(0)} ms` } : { value };
  } catch (e) {
    const ms = performance.now() - started;
    if (ms > SLOW_MS) return { failure: `${label}: took ${ms.toFixed(0)} ms before failing` };
    if (!(e instanceof CniError)) return { failure: `${label}: ${describeThrown(e)}` };
    if (!codes.includes(e.code))
      return { failure: `${label}: CNI error code ${e.code} (${e.msg}) where ${codes.join(" or ")} was expected` };
    if (typeof e.msg !== "string" || e.msg === "")
      return { failure: `${label}: CNI error ${e.code} without a message` };
    return {};
  }
}
