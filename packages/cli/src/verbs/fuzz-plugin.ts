/**
 * `cni fuzz plugin DIR`: exec-protocol fuzzing of any plugin directory (issue 15) in
 * throwaway network namespaces, and `cni fuzz replay FILE` for its replay files. The
 * namespaces are deleted at the end, on a failure and on Ctrl-C; the machine's own
 * namespace is never touched.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PluginFailure, PluginRunReport } from "@tscni/fuzz";
import type { CommandIO } from "../io.ts";

/** The help of `cni fuzz plugin`. */
export const PLUGIN_HELP = `usage: cni fuzz plugin DIR [--plugins a,b,...] [--seed N] [--cases N | --seconds S]
                       [--timeout MS] [--out DIR]

Runs each plugin of DIR (default: every plugin type it knows that DIR holds; --plugins
narrows) as a runtime would (CNI_PATH=DIR) inside a throwaway host namespace, with a
throwaway container namespace, on random env sets (every CNI_* valid, missing, empty or
hostile) and stdin (valid, near-valid, hostile and byte-mutated configs of its type).
A case fails when the plugin dies of a signal, hangs past --timeout, prints a stack trace,
prints stdout that is not JSON (or nothing where a result or an error is due), an error
without code or msg, exits 0 with an error or non-zero with a result, writes a file
outside the data, cache and temp dirs (strace), leaves kernel state behind after a failed
ADD (leak), or after a successful ADD its DEL does not restore the state (del-leak).
Ends with a table by plugin and kind and the rate; failures are saved as replay files
DIR/plugin-<plugin>-<kind>-<seed>-<n>.json for \`cni fuzz replay FILE\`. Needs root and strace.

options:
  --plugins a,b   only these plugins
  --seed N        the seed (default: random; printed, so a run replays)
  --cases N       cases per plugin (default 200)
  --seconds S     a time budget for the whole run instead
  --timeout MS    a plugin running longer is killed and counted as a hang (default 10000)
  --out DIR       where failure files go (default ./fuzz-failures)
`;

interface PluginArgs {
  dir: string;
  plugins?: string[];
  seed: number;
  cases?: number;
  seconds?: number;
  timeoutMs: number;
  out: string;
}

function parseArgs(argv: readonly string[]): PluginArgs | string {
  const [dir, ...rest] = argv;
  if (dir === undefined || dir.startsWith("-")) return "plugin needs a DIR";
  const args: PluginArgs = {
    dir: resolve(dir),
    seed: (Math.random() * 2 ** 31) | 0,
    timeoutMs: 10_000,
    out: "fuzz-failures",
  };
  for (let i = 0; i < rest.length; i++) {
    const name = rest[i] ?? "";
    const value = rest[++i];
    if (value === undefined) return `${name} needs a value`;
    const n = Number(value);
    if (name === "--out") args.out = value;
    else if (name === "--plugins") args.plugins = value.split(",").filter((p) => p !== "");
    else if (!Number.isInteger(n) || n < 0) return `${name} needs a whole number, not "${value}"`;
    else if (name === "--seed") args.seed = n;
    else if (name === "--cases") args.cases = n;
    else if (name === "--seconds") args.seconds = n;
    else if (name === "--timeout") args.timeoutMs = Math.max(n, 1);
    else return `unknown argument "${name}"`;
  }
  return args;
}

const isExecutable = (path: string): boolean => {
  const s = statSync(path, { throwIfNoEntry: false });
  return s !== undefined && s.isFile() && (s.mode & 0o111) !== 0;
};

/** Why this machine cannot run plugin cases, if it cannot. */
function cannotRun(): string | undefined {
  if (process.getuid?.() !== 0) return "needs root (it creates throwaway network namespaces)";
  if (Bun.which("strace") === null) return "needs strace (apt-get install strace) to see which files a plugin writes";
  if (Bun.which("ip") === null) return "needs ip (iproute2)";
  return undefined;
}

/** Deletes the sandbox's namespaces on Ctrl-C or SIGTERM: the first asks the loop to stop, the second exits. */
function onInterrupt(stop: () => void, cleanUp: () => void): () => void {
  let count = 0;
  const handler = () => {
    count++;
    stop();
    if (count > 1) {
      cleanUp();
      process.exit(130);
    }
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

/** `cni fuzz plugin DIR ...`. */
export async function runFuzzPlugin(io: CommandIO): Promise<number> {
  const argv = io.argv.slice(1);
  if (argv.includes("-h") || argv.includes("--help")) {
    io.stdout(PLUGIN_HELP);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === "string") return usage(io, args);
  if (!existsSync(args.dir)) return usage(io, `plugin directory "${args.dir}" does not exist`);
  const why = cannotRun();
  if (why !== undefined) {
    io.stderr(`cni fuzz plugin: ${why}\n`);
    return 2;
  }
  const fuzz = await import("@tscni/fuzz");
  const linux = await import("@tscni/fuzz/linux");
  const wanted = args.plugins ?? fuzz.PLUGIN_TYPES;
  const plugins = wanted.filter((p) => isExecutable(join(args.dir, p)));
  const absent = (args.plugins ?? []).filter((p) => !plugins.includes(p));
  if (absent.length > 0) return usage(io, `no executable ${absent.map((p) => `"${p}"`).join(", ")} in ${args.dir}`);
  if (plugins.length === 0) return usage(io, `no known plugin in ${args.dir}`);
  io.stderr(`cni fuzz plugin: ${plugins.join(" ")} in ${args.dir}, seed ${args.seed}\n`);
  let stopped = false;
  const sb = linux.createLinuxSandbox({ dir: args.dir, timeoutMs: args.timeoutMs });
  const release = onInterrupt(
    () => {
      stopped = true;
    },
    () => sb.destroy(),
  );
  const counters = new Map<string, number>();
  const save = (f: PluginFailure) => {
    mkdirSync(args.out, { recursive: true });
    const stem = `plugin-${f.case.plugin}-${f.kind}-${f.seed}`;
    const n = counters.get(stem) ?? 0;
    counters.set(stem, n + 1);
    const path = join(args.out, `${stem}-${n}.json`);
    writeFileSync(path, `${JSON.stringify(fuzz.toReplayFile(args.dir, f.case, f), null, 2)}\n`);
    io.stdout(`FAIL ${f.case.plugin} ${f.kind}: ${f.detail}\n  case: ${path}\n`);
  };
  let report: PluginRunReport;
  try {
    report = await fuzz.runPluginFuzz(sb, {
      plugins,
      seed: args.seed,
      ...(args.cases !== undefined ? { cases: args.cases } : {}),
      ...(args.seconds !== undefined ? { seconds: args.seconds } : {}),
      stopped: () => stopped,
      onFailure: save,
      onProgress: (p) =>
        io.stderr(
          `plugin: ${p.cases} cases, ${((p.cases * 1000) / Math.max(p.ms, 1)).toFixed(1)} cases/s, ${p.failures} failing\n`,
        ),
    });
  } finally {
    sb.destroy();
    release();
  }
  io.stdout(fuzz.formatTable(report));
  return report.failing === 0 ? 0 : 1;
}

/** `cni fuzz replay FILE` for a plugin replay file: the case again, in fresh namespaces. */
export async function replayPlugin(io: CommandIO, saved: unknown): Promise<number> {
  const why = cannotRun();
  if (why !== undefined) {
    io.stderr(`cni fuzz replay: ${why}\n`);
    return 2;
  }
  const fuzz = await import("@tscni/fuzz");
  const linux = await import("@tscni/fuzz/linux");
  let loaded: ReturnType<typeof fuzz.fromReplayFile>;
  try {
    loaded = fuzz.fromReplayFile(saved);
  } catch (e) {
    return usage(io, e instanceof Error ? e.message : String(e));
  }
  const sb = linux.createLinuxSandbox({ dir: loaded.dir, timeoutMs: 10_000 });
  const release = onInterrupt(
    () => undefined,
    () => sb.destroy(),
  );
  try {
    const findings = await fuzz.runCase(sb, loaded.case, { baseline: undefined });
    for (const f of findings) io.stdout(`fails: ${loaded.case.plugin} ${f.kind}: ${f.detail}\n`);
    if (findings.length === 0) io.stdout("holds\n");
    return findings.length === 0 ? 0 : 1;
  } finally {
    sb.destroy();
    release();
  }
}

function usage(io: CommandIO, why: string): number {
  io.stderr(`cni fuzz plugin: ${why}\n\n${PLUGIN_HELP}`);
  return 2;
}
