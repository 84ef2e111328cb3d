/**
 * `cni convert --to VERSION`: reads a result on stdin and prints it converted to another
 * spec version (SPEC.md §3.7) exactly as the Go library prints it, or a CNI error
 * object on stdout with exit code 1.
 */
import { CniError, ErrorCode, convertResult, goJSON, parseResult, resultToJSON } from "@tscni/spec";
import type { CommandIO, Verb } from "../io.ts";

const HELP = `usage: cni convert --to VERSION [--from-config-version VERSION] < result.json

Reads a CNI result on stdin and prints it converted to spec version VERSION
(0.1.0 0.2.0 0.3.0 0.3.1 0.4.0 1.0.0 1.1.0; "" means 0.1.0), as the reference
Go library prints it: indented JSON, no trailing newline.

The result's version is its "cniVersion". When that is missing or empty it is
--from-config-version if given (what a runtime does, with the config's version),
else 0.1.0.

On failure (bad JSON, an unknown version, a result that the target version cannot
express) it prints a CNI error object on stdout and exits 1.

options:
  --to VERSION                   the spec version to convert to (required)
  --from-config-version VERSION  the config version assumed for a result without one
  -h, --help                     this help
`;

interface ConvertArgs {
  readonly to: string;
  readonly configVersion: string | undefined;
}

/** Parses `--to V`, `--to=V`, `--from-config-version V`; a string is a usage error. */
function _parseArgs(argv: readonly string[]): ConvertArgs | string {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (name !== "--to" && name !== "--from-config-version") return `unknown argument "${arg}"`;
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) return `${name} needs a value`;
    values.set(name, value);
  }
  const to = values.get("--to");
  if (to === undefined) return "missing --to VERSION";
  return { to, configVersion: values.get("--from-config-version") };
}

async function _run(io: CommandIO): Promise<number> {
  const args = _parseArgs(io.argv);
  if (typeof args === "string") {
    io.stderr(`cni convert: ${args}\n\n${HELP}`);
    return 2;
  }
  let stdin: Uint8Array;
  try {
    stdin = await io.readStdin();
  } catch (err) {
    io.stdout(goJSON(new CniError(ErrorCode.IOFailure, "failed to read stdin", String(err)).toWire()));
    return 1;
  }
  try {
    const result = parseResult(stdin, args.configVersion);
    io.stdout(resultToJSON(convertResult(result, args.to)));
    return 0;
  } catch (err) {
    // Errors print like the Go skel's: {"code","msg","details"} indented (E-2, E-4).
    io.stdout(goJSON(CniError.from(err).toWire()));
    return 1;
  }
}

/** The `convert` verb. */
export const verb: Verb = {
  summary: "convert a result on stdin to another spec version",
  help: HELP,
  run: _run,
};
