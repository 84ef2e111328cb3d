/**
 * How the driver runs things inside a network namespace: a program (`ip -batch -`), or a
 * read or write of a /proc/sys file. Two implementations: {@link createSetnsRunner}
 * (the default; switches the JS thread with setns around synchronous work only) and
 * {@link createNsenterRunner} (a portable fallback: one `nsenter` process more per run).
 */
import { statSync } from "../fs.ts";
import { KernelError } from "../kernel.ts";

/** One finished program run. */
export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A program to run: argv and optional stdin text. */
export interface Command {
  argv: readonly string[];
  stdin?: string;
}

/** Runs work inside a namespace given by path; `undefined` means the process's own. */
export interface NsRunner {
  /** How another namespace names ours in `ip ... netns X` (a path `ip` can open). */
  readonly hostRef: string;
  /** Runs commands in order inside `ns`, stopping after the first that fails. */
  exec(ns: string | undefined, cmds: readonly Command[]): RunResult[];
  /**
   * Starts one command inside `ns` and resolves when it has finished: the child exists
   * when this returns, so the caller's thread is free while it runs (the firewall's
   * tools overlap the plugin's kernel work this way).
   */
  spawn(ns: string | undefined, cmd: Command): Promise<RunResult>;
  /** Reads a file inside `ns` (for /proc/sys/net); undefined when it does not exist. */
  readFile(ns: string | undefined, path: string): string | undefined;
  /** Writes a file inside `ns`; throws KernelError (`not-found` when it does not exist). */
  writeFile(ns: string | undefined, path: string, value: string): void;
}

// nsfs: every namespace file shares one device; a stale mount point (an empty file) does not.
let nsfsDev: number | undefined;

/** True when `path` is a live network namespace file. */
export function isNetnsFile(path: string): boolean {
  try {
    nsfsDev ??= statSync("/proc/self/ns/net").dev;
    return statSync(path).dev === nsfsDev;
  } catch {
    return false;
  }
}

/** Throws KernelError `netns-gone` unless `path` is a live network namespace. */
export function requireNetns(path: string): void {
  if (!isNetnsFile(path)) throw new KernelError("netns-gone", `netns "${path}" does not exist`);
}

const SEARCH = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"];

/** Absolute path of a tool, looked up in PATH and the usual sbin directories. */
export function toolPath(name: string): string {
  return Bun.which(name, { PATH: [process.env.PATH ?? "", ...SEARCH].join(":") }) ?? name;
}

const decoder = new TextDecoder();

/** Runs one command synchronously (on this thread, so in this thread's namespace). */
export function spawnSync(cmd: Command): RunResult {
  const r = Bun.spawnSync([...cmd.argv], {
    stdin: cmd.stdin === undefined ? "ignore" : new TextEncoder().encode(cmd.stdin),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, LC_ALL: "C" },
  });
  return { exitCode: r.exitCode ?? 1, stdout: decoder.decode(r.stdout), stderr: decoder.decode(r.stderr) };
}

/**
 * Starts one command (on this thread, so in this thread's namespace: the child is made
 * before this returns) and resolves with its result when it exits.
 */
export function spawnStarted(cmd: Command): Promise<RunResult> {
  const child = Bun.spawn([...cmd.argv], {
    stdin: cmd.stdin === undefined ? "ignore" : new TextEncoder().encode(cmd.stdin),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, LC_ALL: "C" },
  });
  return Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]).then(
    ([stdout, stderr, exitCode]) => ({ exitCode, stdout, stderr }),
  );
}

/** Runs commands in order, stopping after the first failure. */
export function spawnAll(cmds: readonly Command[], run: (c: Command) => RunResult = spawnSync): RunResult[] {
  const out: RunResult[] = [];
  for (const c of cmds) {
    const r = run(c);
    out.push(r);
    if (r.exitCode !== 0) break;
  }
  return out;
}

/** The fallback runner: `nsenter --net=PATH` in front of every command. */
export function createNsenterRunner(): NsRunner {
  const nsenter = toolPath("nsenter");
  const inNs = (ns: string | undefined, c: Command): Command => {
    if (ns === undefined) return c;
    requireNetns(ns);
    return { ...c, argv: [nsenter, `--net=${ns}`, ...c.argv] };
  };
  return {
    hostRef: `/proc/${process.pid}/ns/net`,
    exec: (ns, cmds) => spawnAll(cmds.map((c) => inNs(ns, c))),
    spawn: async (ns, cmd) => spawnStarted(inNs(ns, cmd)),
    readFile(ns, path) {
      const r = spawnSync(inNs(ns, { argv: ["cat", path] }));
      return r.exitCode === 0 ? r.stdout : undefined;
    },
    writeFile(ns, path, value) {
      const r = spawnSync(inNs(ns, { argv: ["sh", "-c", 'printf %s "$1" > "$2"', "sh", value, path] }));
      if (r.exitCode !== 0) {
        const kind = /No such file|nonexistent/.test(r.stderr)
          ? "not-found"
          : /Invalid argument/.test(r.stderr)
            ? "invalid"
            : "other";
        throw new KernelError(kind, `write "${path}": ${r.stderr.trim()}`);
      }
    },
  };
}
