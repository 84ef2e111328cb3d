/**
 * Judges one plugin exec through the protocol alone (§1, §4): what a runtime sees (exit
 * status, stdout, stderr, how long it took) in, the failure kinds found out. Pure.
 */

/** The kinds of failure `cni fuzz plugin` counts, in table order. */
export const FAILURE_KINDS = [
  "signal",
  "hang",
  "trace",
  "not-json",
  "bad-error",
  "exit-mismatch",
  "write",
  "leak",
  "del-leak",
] as const;

/** One kind of failure. */
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** One failure found in a case: its kind and a one-line detail. */
export interface Finding {
  readonly kind: FailureKind;
  readonly detail: string;
}

/** How one exec ended, as a runtime sees it. */
export interface ExecOutcome {
  /** CNI_COMMAND as sent (undefined when missing). */
  readonly command: string | undefined;
  /** The exit status, or null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, if any. */
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** It ran past the time limit and was killed. */
  readonly timedOut: boolean;
}

// Go: `panic: ...` and the goroutine dump, or a fatal runtime error; Bun/JS: an `at ...`
// frame, or the `Bun vX.Y.Z (...)` trailer it prints under an uncaught error.
const TRACE_RES: readonly RegExp[] = [
  /^panic: /m,
  /^goroutine \d+ \[/m,
  /^fatal error: /m,
  /^\s+at .*(?:\(.*:\d+(?::\d+)?\)|:\d+:\d+|<anonymous>|\(native\))\s*$/m,
  /^Bun v\d+\.\d+\.\d+ \(/m,
];

/** The first line of `text` that looks like a stack trace, if any. */
export function stackTraceLine(text: string): string | undefined {
  for (const re of TRACE_RES) {
    const m = re.exec(text);
    if (m !== null) {
      const start = text.lastIndexOf("\n", m.index) + 1;
      const end = text.indexOf("\n", m.index + 1);
      return text.slice(start, end === -1 ? undefined : end).trim();
    }
  }
  return undefined;
}

const short = (s: string): string => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}...` : s);

/** Commands whose success prints nothing (DEL-7, CHK-8, GC-7, ST-1; a missing command with an about text, §1.11). */
const SILENT_ON_SUCCESS = new Set(["DEL", "CHECK", "GC", "STATUS"]);

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Every failure one exec shows; an empty list when it behaved. */
export function judgeExec(o: ExecOutcome): Finding[] {
  const out: Finding[] = [];
  if (o.timedOut) return [{ kind: "hang", detail: "ran past the time limit and was killed" }];
  if (o.signal !== null) out.push({ kind: "signal", detail: `died of ${o.signal}` });
  const trace = stackTraceLine(o.stdout) ?? stackTraceLine(o.stderr);
  if (trace !== undefined) out.push({ kind: "trace", detail: `stack trace: ${short(trace)}` });
  if (o.signal !== null) return out;
  const ok = o.exitCode === 0;
  const text = o.stdout.trim();
  if (text === "") {
    // Success of DEL, CHECK, GC, STATUS (and a missing command) prints nothing; ADD and
    // VERSION print a result (ADD-2, VER-2); a failure prints an error object (P-3, E-4).
    const allowed = ok && (o.command === undefined || o.command === "" || SILENT_ON_SUCCESS.has(o.command));
    if (!allowed)
      out.push({ kind: "not-json", detail: ok ? `empty stdout on ${o.command} success` : "failed with empty stdout" });
    return out;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    out.push({ kind: "not-json", detail: `stdout is not JSON: ${short(text)}` });
    return out;
  }
  const isError = isObject(doc) && ("code" in doc || "msg" in doc);
  if (ok && isError) out.push({ kind: "exit-mismatch", detail: `exit 0 with an error object ${short(text)}` });
  if (!ok && !isError) {
    const looksLikeResult = isObject(doc) && "cniVersion" in doc;
    out.push(
      looksLikeResult
        ? { kind: "exit-mismatch", detail: `exit ${o.exitCode} with a result ${short(text)}` }
        : { kind: "bad-error", detail: `exit ${o.exitCode} and stdout is no error object: ${short(text)}` },
    );
  }
  if (isError) {
    const { code, msg } = doc as Record<string, unknown>;
    if (typeof code !== "number" || !Number.isInteger(code))
      out.push({ kind: "bad-error", detail: `error without a numeric code: ${short(text)}` });
    else if (typeof msg !== "string" || msg === "")
      out.push({ kind: "bad-error", detail: `error without a msg: ${short(text)}` });
  }
  return out;
}
