/**
 * In-process plugins (ARCHITECTURE "The fast path", issue 11): an `Exec` that runs a
 * plugin inside this process when the binary found in CNI_PATH is this very executable
 * under a plugin's name, and execs everything else through the wrapped `Exec`.
 *
 * The plugin sees what a child would: the same stdin bytes, the complete environment of
 * the request (P-8, never `process.env`), and its stdout, stderr and exit status become
 * the same `ExecOutcome`, so decoding, errors and the result cache do not know the
 * difference. The runtime does not import plugins (layering): the table of plugins is a
 * port the entry points (cli, daemon) fill in.
 */
import { realpathSync } from "node:fs";
import type { Exec, ExecOutcome, ExecRequest } from "@tscni/invoke";

/** The streams of one in-process plugin call: the shape of the binary's plugin IO. */
export interface InProcessIO {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readStdin: () => Promise<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs plugin `name` as the binary would when invoked under that name; returns its exit status. */
export type InProcessRunner = (name: string, io: InProcessIO) => Promise<number>;

/** The plugins this executable carries, and how to run one of them here. */
export interface InProcessPlugins {
  /** This executable (`process.execPath` of the compiled binary). */
  readonly selfPath: string;
  /** The names the binary answers to as a plugin (the basename of argv[0]). */
  readonly names: ReadonlySet<string>;
  readonly run: InProcessRunner;
}

/** Options of {@link InProcessExec}. */
export interface InProcessExecOptions {
  /** Where a successful plugin's stderr goes (E-6), as BunExec copies a child's. */
  readonly stderr?: (bytes: Uint8Array) => void;
}

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const encoder = new TextEncoder();

function joined(chunks: readonly string[]): Uint8Array {
  return encoder.encode(chunks.join(""));
}

/**
 * An `Exec` that runs this binary's own plugins in process and execs the rest.
 *
 * @example
 * const exec = new InProcessExec(defaultExec(), { selfPath: process.execPath, names, run });
 * new CniRuntime({ paths, exec });
 */
export class InProcessExec implements Exec {
  readonly #fallback: Exec;
  readonly #plugins: InProcessPlugins;
  readonly #self: string | undefined;
  readonly #stderr: (bytes: Uint8Array) => void;

  constructor(fallback: Exec, plugins: InProcessPlugins, options: InProcessExecOptions = {}) {
    this.#fallback = fallback;
    this.#plugins = plugins;
    this.#self = realpath(plugins.selfPath);
    this.#stderr = options.stderr ?? ((bytes) => void process.stderr.write(bytes));
  }

  findInPath(name: string, paths: readonly string[]): Promise<string> {
    return this.#fallback.findInPath(name, paths);
  }

  /**
   * The plugin name `path` would run as in process, or undefined when it must be exec'd:
   * the binary dispatches on its argv[0] basename, so the link's own name picks the plugin
   * (a link to us under another name would not be a plugin when exec'd either).
   */
  inProcessName(path: string): string | undefined {
    const name = basename(path);
    if (this.#self === undefined || !this.#plugins.names.has(name)) return undefined;
    return realpath(path) === this.#self ? name : undefined;
  }

  execPlugin(path: string, request: ExecRequest): Promise<ExecOutcome> {
    const name = this.inProcessName(path);
    return name === undefined ? this.#fallback.execPlugin(path, request) : this.#run(name, request);
  }

  async #run(name: string, request: ExecRequest): Promise<ExecOutcome> {
    const out: string[] = [];
    const err: string[] = [];
    const io: InProcessIO = {
      argv: [],
      env: request.env,
      readStdin: () => Promise.resolve(request.stdin),
      stdout: (text) => void out.push(text),
      stderr: (text) => void err.push(text),
    };
    const call = this.#plugins.run(name, io).catch((e: unknown) => {
      // A throw past the skel is a crash: a child would print it and exit 1.
      err.push(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      return 1;
    });
    const limit = request.timeoutMs ?? 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A call in process cannot be killed: on timeout the caller gets what a killed child
    // gives (EX-2) and the call finishes in the background, its output dropped.
    const timeout =
      limit > 0
        ? new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), limit)))
        : undefined;
    try {
      const code = await (timeout === undefined ? call : Promise.race([call, timeout]));
      if (code === "timeout")
        return { stdout: joined(out), stderr: joined(err), failure: "signal: killed", timedOut: true };
      const stdout = joined(out);
      const stderr = joined(err);
      if (code !== 0) return { stdout, stderr, failure: `exit status ${code}` };
      if (stderr.length > 0) this.#stderr(stderr);
      return { stdout, stderr };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }
}
