/**
 * The real `Exec`: runs plugins with Bun.spawn (no shell, EX-1), with a per-call timeout
 * that kills the process and the "text file busy" retry of EX-3.
 */
import type { Exec, ExecOutcome, ExecRequest } from "./exec.ts";
import { findInPath } from "./find.ts";

/** Options of {@link BunExec}. */
export interface BunExecOptions {
  /** Where a successful plugin's stderr is copied (E-6); defaults to the process's stderr. */
  readonly stderr?: (bytes: Uint8Array) => void;
  /** Pause between "text file busy" attempts (EX-3: 1 s in the reference). */
  readonly busyRetryDelayMs?: number;
  /** Attempts in all when the binary is busy (EX-3: 6 in the reference). */
  readonly busyAttempts?: number;
}

// How Go's os/exec names the usual signals in "signal: <name>".
const SIGNAL_WORDS: Readonly<Record<string, string>> = {
  SIGKILL: "killed",
  SIGTERM: "terminated",
  SIGINT: "interrupt",
  SIGSEGV: "segmentation fault",
  SIGABRT: "aborted",
  SIGHUP: "hangup",
  SIGPIPE: "broken pipe",
};

const EMPTY = new Uint8Array(0);

function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The reference's exec, on Bun.spawn. */
export class BunExec implements Exec {
  readonly #stderr: (bytes: Uint8Array) => void;
  readonly #retryDelayMs: number;
  readonly #attempts: number;

  constructor(options: BunExecOptions = {}) {
    this.#stderr = options.stderr ?? ((bytes) => void process.stderr.write(bytes));
    this.#retryDelayMs = options.busyRetryDelayMs ?? 1000;
    this.#attempts = options.busyAttempts ?? 6;
  }

  findInPath(name: string, paths: readonly string[]): Promise<string> {
    return findInPath(name, paths);
  }

  async execPlugin(path: string, request: ExecRequest): Promise<ExecOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#runOnce(path, request);
      } catch (err) {
        // The binary is being rewritten: wait and try again (EX-3).
        if (errnoCode(err) === "ETXTBSY" && attempt < this.#attempts) {
          await Bun.sleep(this.#retryDelayMs);
          continue;
        }
        const reason =
          err instanceof Error ? err.message.replace(/^[A-Z]+: /, "").replace(/, posix_spawn .*$/, "") : String(err);
        return { stdout: EMPTY, stderr: EMPTY, failure: `fork/exec ${path}: ${reason}` };
      }
    }
  }

  async #runOnce(path: string, request: ExecRequest): Promise<ExecOutcome> {
    const proc = Bun.spawn([path], {
      env: { ...request.env },
      stdin: request.stdin,
      stdout: "pipe",
      stderr: "pipe",
      // Its own process group, so a timeout also kills what the plugin started (a shell
      // script's children would otherwise hold the pipes open).
      detached: true,
    });
    let timedOut = false;
    const limit = request.timeoutMs ?? 0;
    const timer =
      limit > 0
        ? setTimeout(() => {
            timedOut = true;
            try {
              process.kill(-proc.pid, "SIGKILL");
            } catch {
              proc.kill("SIGKILL");
            }
          }, limit)
        : undefined;
    try {
      const [stdout, stderr] = await Promise.all([
        new Response(proc.stdout).bytes(),
        new Response(proc.stderr).bytes(),
      ]);
      await proc.exited;
      if (proc.signalCode !== null) {
        const word = SIGNAL_WORDS[proc.signalCode] ?? proc.signalCode;
        return { stdout, stderr, failure: `signal: ${word}`, timedOut };
      }
      if (proc.exitCode !== 0) return { stdout, stderr, failure: `exit status ${proc.exitCode}`, timedOut };
      if (stderr.length > 0) this.#stderr(stderr);
      return { stdout, stderr };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }
}
