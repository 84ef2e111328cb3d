/**
 * The shapes of the conformance suite: a case judges one plugin binary through the CNI
 * protocol alone, and ends as one row of the report.
 */

/** What one plugin invocation did. */
export interface Outcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** One invocation's CNI_* overrides and stdin (a string is sent as is, an object as JSON). */
export interface Call {
  env?: Record<string, string>;
  stdin?: string | Record<string, unknown>;
}

/** What a case gets: the plugin under test and how to call it. */
export interface CaseContext {
  /** The plugin directory (also used as CNI_PATH). */
  dir: string;
  /** The plugin's name (its file name in `dir`). */
  plugin: string;
  /** True when running as root: kernel cases need it. */
  root: boolean;
  /** A scratch directory of this case, removed afterwards. */
  tmp: string;
  /** Runs the plugin with `command` and sensible defaults for every CNI_* variable. */
  call(command: string, call?: Call): Promise<Outcome>;
}

/** One black-box case. It passes when `run` returns, fails when it throws (the message is the reason). */
export interface ConformanceCase {
  /** Short id, unique in the suite, e.g. `fw.env-missing`. */
  id: string;
  /** The SPEC.md rule(s) it judges, e.g. `ENV-2`. */
  rule: string;
  /** Which plugin it runs against; `*` for the framework cases every plugin must pass. */
  plugin: string;
  /** Cases that change a kernel (in throwaway namespaces) need root. */
  needsRoot?: boolean;
  run(ctx: CaseContext): Promise<void>;
}

/** The outcome of one case on one plugin. */
export interface Row {
  id: string;
  plugin: string;
  rule: string;
  status: "pass" | "fail" | "skip";
  reason: string;
}

/** Thrown by a case (or the runner) to skip it with a reason. */
export class Skip extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "Skip";
  }
}
