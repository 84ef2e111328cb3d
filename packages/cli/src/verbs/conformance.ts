/**
 * `cni conformance <plugin-dir>`: judge the plugins of a directory through the CNI
 * protocol alone and print the table of cases with the spec rule behind each.
 */
import type { CommandIO, Verb } from "../io.ts";

const HELP = `usage: cni conformance [--plugin NAME]... [--case PREFIX]... <plugin-dir>

Run the black-box conformance cases against the plugin executables in <plugin-dir>
(for example /opt/cni/bin) and print one row per case: the case, the plugin, the
SPEC.md rule it judges, pass/fail/skip and why. Exits 1 when a case fails.

Framework cases run against every known plugin found (loopback, host-local, bridge,
ptp, portmap, macvlan, ipvlan, vlan, dummy); kernel cases need root and create and delete their own network
namespaces (tscni-conf-*); host-local cases use a scratch data directory.

  --plugin NAME    only judge this plugin (repeatable)
  --case PREFIX    only run cases whose id starts with PREFIX (repeatable), e.g. fw. or lo.
`;

/** The command line of `cni conformance`, parsed. */
export interface ConformanceArgs {
  dir: string;
  plugins: string[];
  cases: string[];
}

/** Parses argv; returns a usage error message instead of throwing. */
export function parseConformanceArgs(argv: readonly string[]): ConformanceArgs | string {
  const out: ConformanceArgs = { dir: "", plugins: [], cases: [] };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--plugin" || a === "--case") {
      const v = argv[++i];
      if (v === undefined) return `option "${a}" needs a value`;
      (a === "--plugin" ? out.plugins : out.cases).push(v);
    } else if (a.startsWith("-")) return `unknown option "${a}"`;
    else positional.push(a);
  }
  if (positional.length !== 1) return "expected exactly one plugin directory";
  out.dir = positional[0] ?? "";
  return out;
}

async function run(io: CommandIO): Promise<number> {
  const args = parseConformanceArgs(io.argv);
  if (typeof args === "string") {
    io.stderr(`cni conformance: ${args}\n\n${HELP}`);
    return 2;
  }
  const { ALL_CASES, formatReport, runConformance, summarize } = await import("@tscni/conformance");
  const cases =
    args.cases.length === 0 ? ALL_CASES : ALL_CASES.filter((c) => args.cases.some((p) => c.id.startsWith(p)));
  try {
    const rows = await runConformance({
      dir: args.dir,
      cases,
      ...(args.plugins.length > 0 ? { plugins: args.plugins } : {}),
    });
    io.stdout(formatReport(rows));
    return summarize(rows).failed > 0 ? 1 : 0;
  } catch (err) {
    io.stderr(`cni conformance: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}

/** The `conformance` verb. */
export const verb: Verb = { summary: "judge a directory of plugins against the CNI spec", help: HELP, run };
