/**
 * The `Exec` port: how a plugin process is run. The real implementation is
 * `exec-bun.ts`; tests pass fakes. Decoding what the process said lives in `decode.ts`.
 */

/** The default per-call timeout: libcni has none (EX-2), so we pick two minutes. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** One plugin invocation: the complete environment, the stdin bytes, and a time limit. */
export interface ExecRequest {
  /** The complete environment of the child (P-8 builds it); nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: Uint8Array;
  /** Kill the plugin after this many milliseconds; 0 or absent means no limit. */
  readonly timeoutMs?: number;
}

/** What a finished (or killed, or never started) plugin process left behind. */
export interface ExecOutcome {
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  /**
   * Absent on success (exit 0). Otherwise the failure as Go's os/exec words it:
   * `exit status 1`, `signal: killed`, `fork/exec <path>: permission denied`.
   */
  readonly failure?: string;
  /** True when the process was killed because `timeoutMs` ran out. */
  readonly timedOut?: boolean;
}

/** Runs plugin binaries and finds them (the Go lib's `invoke.Exec`, minus the decoder). */
export interface Exec {
  /** Runs the plugin at `path` with no shell (EX-1) and collects its output. */
  execPlugin(path: string, request: ExecRequest): Promise<ExecOutcome>;
  /** Finds plugin `name` in `paths` (FP-1..FP-5). */
  findInPath(name: string, paths: readonly string[]): Promise<string>;
}
