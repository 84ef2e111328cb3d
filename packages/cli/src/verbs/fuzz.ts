/**
 * `cni fuzz TARGET`: structure-aware fuzzing of our config parsers and result conversion
 * (issue 15), with a seed, a case count or a time budget, a progress line, shrinking, and
 * failures saved as replayable files; `cni fuzz replay FILE` judges a saved case again.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandIO, Verb } from "../io.ts";

const HELP = `usage: cni fuzz config|convert [--seed N] [--cases N | --seconds S] [--out DIR]
       cni fuzz config|convert --against CMD [--versions V,V,...] [--seed N] [--cases N | --seconds S] [--out DIR]
       cni fuzz plugin DIR [--plugins a,b,...] [--seed N] [--cases N | --seconds S] [--timeout MS] [--shrink N]
       cni fuzz replay FILE

Targets:
  config    config bytes (valid, near-valid, hostile, byte-mutated) through our plugin
            and list parsers: a typed config or a CNI error with code and message, or a
            failure (any other throw, an error without a message, a case over 2 s)
  convert   results of every version (valid and hostile) converted to every version,
            with invariants: identity to the same version, label-only changes inside a
            family, 0.1.0/0.2.0 results surviving a trip up and back
  plugin    exec-protocol fuzzing of a plugin directory in throwaway namespaces: random
            env and stdin per plugin; crashes, hangs, stack traces, non-JSON stdout, bad
            errors, stray file writes and kernel state left behind (cni fuzz plugin --help)

Differential (--against CMD): the same generated cases go to another implementation and
each of its answers is compared with ours. CMD runs through sh -c, ONE process per chunk
of cases (one per case while shrinking), and speaks a line protocol: one JSON request per
line on stdin, one JSON answer per line on stdout, in order: a result object, or
{"error": "..."} when it refuses. For convert a request is
  {"result": <result JSON>, "to": "<version>"}
(scripts/compat/go/convert, libcni's CreateFromBytes + GetAsVersion, speaks it); for
config it is {"bytes": "<base64>", "list": true|false} and the answer holds the parsed
{"name", "type", "cniVersion"}, or for a list {"name", "cniVersion", "plugins": [<type>...]}
(scripts/compat/go/confparse, libcni's ConfFromBytes / ConfListFromBytes). Two
errors agree (messages differ by design); two results agree when their JSON is equal
with keys sorted; a result against an error, a missing or non-JSON line, or a crash is a
disagreement, unless a named allowance (a deliberate deviation, printed with its count)
covers it. Each new class of disagreement is shrunk and saved with the command, so
replay asks CMD again. For convert, --versions restricts the generated and target
versions to those CMD knows (and leaves out the fields 1.1.0 added unless 1.1.0 is
listed), e.g. for Debian's libcni v1.1: --versions 0.1.0,0.2.0,0.3.0,0.3.1,0.4.0,1.0.0

Failures are shrunk to a minimal input and saved as DIR/<target>-<seed>-<n>.json
(default DIR: ./fuzz-failures); replay prints the failure again or "holds".
Exit status: 0 when nothing failed, 1 when something did, 2 on a usage error.

options:
  --seed N      the seed (default: random; printed, so a run replays)
  --cases N     how many cases (default 10000)
  --seconds S   a time budget instead of a case count
  --out DIR     where failure files go
  --against CMD compare with CMD (see above)
  --versions L  comma-separated versions to generate and convert to (default: all seven)
`;

interface FuzzArgs {
  target: string;
  seed: number;
  cases?: number;
  seconds?: number;
  out: string;
  against?: string;
  versions?: string[];
}

function parseArgs(argv: readonly string[]): FuzzArgs | string {
  const [target, ...rest] = argv;
  if (target === undefined) return "missing a target";
  const args: FuzzArgs = { target, seed: (Math.random() * 2 ** 31) | 0, out: "fuzz-failures" };
  for (let i = 0; i < rest.length; i++) {
    const name = rest[i] ?? "";
    const value = rest[++i];
    if (value === undefined) return `${name} needs a value`;
    const n = Number(value);
    if (name === "--out") args.out = value;
    else if (name === "--against") args.against = value;
    else if (name === "--versions") args.versions = value.split(",").map((v) => v.trim());
    else if (!Number.isInteger(n) || n < 0) return `${name} needs a whole number, not "${value}"`;
    else if (name === "--seed") args.seed = n;
    else if (name === "--cases") args.cases = n;
    else if (name === "--seconds") args.seconds = n;
    else return `unknown argument "${name}"`;
  }
  return args;
}

async function run(io: CommandIO): Promise<number> {
  if (io.argv[0] === "plugin") return (await import("./fuzz-plugin.ts")).runFuzzPlugin(io);
  if (io.argv.includes("-h") || io.argv.includes("--help")) {
    io.stdout(HELP);
    return 0;
  }
  const { configTargetWith, convertTarget, replay, runTarget } = await import("@tscni/fuzz");
  const { pluginDecoding } = await import("./fuzz-decoders.ts");
  const configTarget = configTargetWith(pluginDecoding);
  const targets = { config: configTarget, convert: convertTarget() } as const;
  const pick = (name: unknown) => (name === "config" || name === "convert" ? targets[name] : undefined);
  if (io.argv[0] === "replay") {
    const file = io.argv[1];
    if (file === undefined) return usage(io, "replay needs a FILE");
    let saved: { target?: unknown; input?: unknown; failure?: unknown; against?: unknown };
    try {
      saved = JSON.parse(readFileSync(file, "utf8")) as typeof saved;
    } catch (e) {
      io.stderr(`cni fuzz: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
    if (typeof saved.against === "string") {
      const { replayAgainst } = await import("./_fuzz-against.ts");
      const r = await replayAgainst({ ...saved, against: saved.against });
      if (r.usage !== undefined) return usage(io, `${file}: ${r.usage}`);
      io.stdout(r.failure === undefined ? "holds\n" : `fails: ${r.failure}\n`);
      return r.failure === undefined ? 0 : 1;
    }
    if (saved.target === "plugin") return (await import("./fuzz-plugin.ts")).replayPlugin(io, saved);
    const target = pick(saved.target);
    if (target === undefined) return usage(io, `${file} names no known target`);
    const failure = replay(target as typeof configTarget, saved.input);
    io.stdout(failure === undefined ? "holds\n" : `fails: ${failure}\n`);
    return failure === undefined ? 0 : 1;
  }
  const args = parseArgs(io.argv);
  if (typeof args === "string") return usage(io, args);
  if (args.versions !== undefined && args.against === undefined) return usage(io, "--versions goes with --against");
  if (args.against !== undefined) {
    const { runAgainstVerb } = await import("./_fuzz-against.ts");
    return runAgainstVerb(io, { ...args, against: args.against });
  }
  const target = pick(args.target);
  if (target === undefined) return usage(io, `unknown target "${args.target}"`);
  io.stderr(`cni fuzz ${args.target}: seed ${args.seed}\n`);
  const report = runTarget(target as typeof configTarget, {
    seed: args.seed,
    ...(args.cases !== undefined ? { cases: args.cases } : {}),
    ...(args.seconds !== undefined ? { seconds: args.seconds } : {}),
    chunk: 2000,
    onProgress: (p) =>
      io.stderr(
        `${p.target}: ${p.cases} cases, ${Math.round((p.cases * 1000) / Math.max(p.ms, 1))} cases/s, ${p.failures} failures\n`,
      ),
  });
  report.failureList.forEach((f, n) => {
    mkdirSync(args.out, { recursive: true });
    const path = join(args.out, `${f.target}-${f.seed}-${n}.json`);
    writeFileSync(
      path,
      `${JSON.stringify({ target: f.target, seed: f.seed, failure: f.failure, shrinks: f.shrinks, input: f.input }, null, 2)}\n`,
    );
    io.stdout(`FAIL ${f.failure}\n  minimal case (${f.shrinks} shrinks): ${path}\n`);
  });
  io.stdout(
    `${report.target}: ${report.cases} cases in ${(report.ms / 1000).toFixed(1)} s, ${report.failures} failures (seed ${report.seed})\n`,
  );
  return report.failures === 0 ? 0 : 1;
}

function usage(io: CommandIO, why: string): number {
  io.stderr(`cni fuzz: ${why}\n\n${HELP}`);
  return 2;
}

/** The `fuzz` verb. */
export const verb: Verb = {
  summary: "fuzz our config parsers and result conversion; replay a saved failure",
  help: HELP,
  run,
};
