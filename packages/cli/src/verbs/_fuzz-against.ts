/**
 * `cni fuzz TARGET --against CMD` (issue 15): the differential run of a target against
 * another implementation, its failure files (which record the command and the versions,
 * so `cni fuzz replay` asks the same command again), and that replay.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandIO } from "../io.ts";

/** What a differential run needs from the command line. */
export interface AgainstArgs {
  readonly target: string;
  readonly against: string;
  readonly versions?: readonly string[];
  readonly seed: number;
  readonly cases?: number;
  readonly seconds?: number;
  readonly out: string;
}

/** The differential of `target` over `versions`, or a reason it cannot be had. */
async function differential(
  target: unknown,
  versions: readonly string[] | undefined,
): Promise<import("@tscni/fuzz").Differential<unknown> | string> {
  const { VERSIONS } = await import("@tscni/spec");
  const fuzz = await import("@tscni/fuzz");
  const vs = versions ?? VERSIONS;
  const unknown = vs.filter((v) => !(VERSIONS as readonly string[]).includes(v));
  if (unknown.length > 0 || vs.length === 0)
    return `--versions takes known versions (${VERSIONS.join(",")}), not "${vs.join(",")}"`;
  // Each differential is used only through its own save/load and judge, so the case type erases.
  if (target === "convert") return fuzz.againstConvert(vs) as import("@tscni/fuzz").Differential<unknown>;
  if (target === "config") return fuzz.againstConfig() as import("@tscni/fuzz").Differential<unknown>;
  return `--against is not available for target "${String(target)}" (config and convert have it)`;
}

/** Runs the differential; exit 0 when nothing disagreed, 1 when something did, 2 on a usage error. */
export async function runAgainstVerb(io: CommandIO, args: AgainstArgs): Promise<number> {
  const d = await differential(args.target, args.versions);
  if (typeof d === "string") {
    io.stderr(`cni fuzz: ${d}\n`);
    return 2;
  }
  const { runAgainst } = await import("@tscni/fuzz");
  io.stderr(`cni fuzz ${args.target} --against ${JSON.stringify(args.against)}: seed ${args.seed}\n`);
  const report = runAgainst(d, args.against, {
    seed: args.seed,
    ...(args.cases !== undefined ? { cases: args.cases } : {}),
    ...(args.seconds !== undefined ? { seconds: args.seconds } : {}),
    chunk: 1000,
    onProgress: (p) =>
      io.stderr(
        `${p.target} --against: ${p.cases} cases, ${Math.round((p.cases * 1000) / Math.max(p.ms, 1))} cases/s, ${p.failures} disagreements\n`,
      ),
  });
  report.failureList.forEach((f, n) => {
    mkdirSync(args.out, { recursive: true });
    const path = join(args.out, `${f.target}-against-${f.seed}-${n}.json`);
    const saved = {
      target: f.target,
      against: args.against,
      ...(args.versions !== undefined ? { versions: args.versions } : {}),
      seed: f.seed,
      failure: f.failure,
      shrinks: f.shrinks,
      input: f.input,
    };
    writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`);
    io.stdout(`DISAGREE ${f.failure}\n  minimal case (${f.shrinks} shrinks): ${path}\n`);
  });
  for (const [id, n] of Object.entries(report.allowed)) io.stdout(`allowed ${id}: ${n} cases\n`);
  io.stdout(
    `${report.target} --against: ${report.cases} cases in ${(report.ms / 1000).toFixed(1)} s, ${report.failures} disagreements (seed ${report.seed})\n`,
  );
  return report.failures === 0 ? 0 : 1;
}

/** Replays a saved differential case against its recorded command: the disagreement, or undefined when they agree now. */
export async function replayAgainst(saved: {
  target?: unknown;
  against: string;
  versions?: unknown;
  input?: unknown;
}): Promise<{ failure?: string; usage?: string }> {
  const versions = Array.isArray(saved.versions) ? saved.versions.map(String) : undefined;
  const d = await differential(saved.target, versions);
  if (typeof d === "string") return { usage: d };
  const { againstTarget } = await import("@tscni/fuzz");
  const target = againstTarget(d, saved.against);
  const failure = target.check(target.load(saved.input));
  return failure === undefined ? {} : { failure };
}
