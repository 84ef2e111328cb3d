/**
 * A differential fuzz target (issue 15, `--against CMD`): what it generates, the request
 * line the other side reads, our own answer, and how two answers are judged. Answers
 * agree when both are errors (messages differ by design), or both results with equal
 * canonical JSON; anything else is a disagreement unless a NAMED allowance (a deliberate
 * deviation, citing its SPEC id) covers it.
 */
import type fc from "fast-check";
import { type Answer, answerKind, canonical, firstDifference } from "./answer.ts";

/** A known, deliberate difference the comparison accepts, with the rule that makes it so. */
export interface Allowance<I> {
  /** A short stable name, printed with the count of cases it accepted. */
  readonly id: string;
  /** The SPEC id(s) or documented deviation behind it, and why. */
  readonly reason: string;
  /** True when this disagreement is the allowed one. */
  applies(input: I, ours: Answer, theirs: Answer): boolean;
}

/** One differential target. */
export interface Differential<I> {
  readonly name: string;
  readonly summary: string;
  readonly arbitrary: fc.Arbitrary<I>;
  /** The JSON request line the other side reads for this case. */
  request(input: I): unknown;
  /** Our answer, in process; never throws (a crash is a `broken` answer). */
  ours(input: I): Answer;
  /** An answer as compared: the fields the comparison looks at, in canonical form. */
  comparable(a: Answer): unknown;
  /** A short label of the case for a disagreement line (e.g. `0.4.0 -> 0.2.0`). */
  label(input: I): string;
  /** The deliberate differences this target accepts. */
  readonly allowances: readonly Allowance<I>[];
  save(input: I): unknown;
  load(saved: unknown): I;
}

/** The verdict on one case. */
export type Verdict =
  | { readonly agree: true; readonly allowance?: string }
  | { readonly agree: false; readonly why: string };

/** Judges our answer against theirs: agreement, an allowance that covers it, or a one-line disagreement. */
export function judgeAnswers<I>(d: Differential<I>, input: I, ours: Answer, theirs: Answer): Verdict {
  const [ko, kt] = [answerKind(ours), answerKind(theirs)];
  if (ko === "error" && kt === "error") return { agree: true };
  const [a, b] = [canonical(d.comparable(ours)), canonical(d.comparable(theirs))];
  if (ko === "result" && kt === "result" && JSON.stringify(a) === JSON.stringify(b)) return { agree: true };
  const allowed = d.allowances.find((x) => x.applies(input, ours, theirs));
  if (allowed !== undefined) return { agree: true, allowance: allowed.id };
  const what =
    ko === "broken" || kt === "broken"
      ? `${ko === "broken" ? `ours broken (${(ours as { broken: string }).broken})` : `ours ${ko}`}, ${kt === "broken" ? `theirs broken (${(theirs as { broken: string }).broken})` : `theirs ${kt}`}`
      : ko !== kt
        ? `ours ${ko}, theirs ${kt} (${errorText(ko === "error" ? ours : theirs)})`
        : `results differ at ${firstDifference(a, b)}`;
  return { agree: false, why: `${d.label(input)}: ${what}` };
}

/** The start of an error answer's message: part of a disagreement's line, so its class. */
function errorText(a: Answer): string {
  return "error" in a ? a.error.slice(0, 100) : "";
}
