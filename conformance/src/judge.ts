/**
 * The checks cases are made of. Each throws an Error whose message is the reason shown
 * in the report; they judge behaviour and codes, never formatting (R-3).
 */
import type { Outcome } from "./types.ts";

/** The error object a failing plugin prints (E-1; `cniVersion` optional, E-2). */
export interface WireError {
  code: number;
  msg: string;
  details?: string;
  cniVersion?: string;
}

/** Fails the case with `reason`. */
export function fail(reason: string): never {
  throw new Error(reason);
}

/** Fails the case with `reason` unless `cond` holds. */
export function check(cond: boolean, reason: string): asserts cond {
  if (!cond) fail(reason);
}

/** A short, one-line view of a plugin's output for reasons. */
export function show(out: Outcome): string {
  const flat = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 160);
  return `exit ${out.exitCode}${out.timedOut ? " (timed out)" : ""}, stdout ${JSON.stringify(flat(out.stdout))}${out.stderr.trim() === "" ? "" : `, stderr ${JSON.stringify(flat(out.stderr))}`}`;
}

/** stdout parsed as JSON, or a failure naming what was printed. */
export function stdoutJson(out: Outcome): unknown {
  try {
    return JSON.parse(out.stdout);
  } catch {
    return fail(`stdout is not JSON: ${show(out)}`);
  }
}

/**
 * The call failed the CNI way: non-zero exit (P-3) and an error object on stdout (E-4)
 * with a numeric `code` (equal to `code` when given) and a string `msg`.
 */
export function expectError(out: Outcome, code?: number): WireError {
  check(out.exitCode !== 0, `expected a failure${code === undefined ? "" : ` with code ${code}`}, got ${show(out)}`);
  const e = stdoutJson(out) as Partial<WireError> | null;
  check(typeof e === "object" && e !== null && !Array.isArray(e), `the error on stdout is not an object: ${show(out)}`);
  check(
    typeof e.code === "number" && typeof e.msg === "string",
    `the error object needs a numeric code and a string msg: ${show(out)}`,
  );
  if (code !== undefined) check(e.code === code, `expected code ${code}, got ${e.code} (${JSON.stringify(e.msg)})`);
  return e as WireError;
}

/** The call succeeded: exit 0 (P-3). */
export function expectSuccess(out: Outcome): void {
  check(out.exitCode === 0, `expected success, got ${show(out)}`);
}

/** The call succeeded and printed nothing on stdout (DEL-7, CHK-8, GC-7). */
export function expectSilentSuccess(out: Outcome): void {
  expectSuccess(out);
  check(out.stdout.trim() === "", `expected no output on success, got ${show(out)}`);
}

/** The call succeeded with a JSON object on stdout. */
export function expectResult(out: Outcome): Record<string, unknown> {
  expectSuccess(out);
  const r = stdoutJson(out);
  check(typeof r === "object" && r !== null && !Array.isArray(r), `the result is not a JSON object: ${show(out)}`);
  return r as Record<string, unknown>;
}

/** JSON values equal regardless of key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canon);
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}
