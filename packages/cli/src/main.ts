/**
 * The one binary's entry: the basename of argv[0] picks a plugin; otherwise it is the
 * `cni` command and argv[1] picks a verb.
 */
import { PLUGINS } from "./plugins.ts";
import { VERBS } from "./verbs.ts";
import type { CommandIO } from "./io.ts";

/** The name this process was invoked as (a symlink's name for plugins). */
export function invokedName(argv0: string | undefined): string {
  const base = (argv0 ?? "cni").split("/").pop() ?? "cni";
  return base;
}

function processIO(args: readonly string[]): CommandIO {
  return {
    argv: args,
    env: process.env,
    readStdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  };
}

/** Top-level help: the verbs and their summaries. */
export function usage(): string {
  const width = Math.max(...Object.keys(VERBS).map((v) => v.length));
  const lines = Object.entries(VERBS).map(([name, v]) => `  ${name.padEnd(width)}  ${v.summary}`);
  return [
    "tscni: the Container Network Interface in one binary",
    "",
    "usage: cni <verb> [args]    (or run as a plugin through a link named after it)",
    "",
    "verbs:",
    ...lines,
    "",
    `plugins: ${Object.keys(PLUGINS).join(", ") || "(none yet)"}`,
    "Run `cni <verb> --help` for a verb's options.",
    "",
  ].join("\n");
}

/** Runs the binary: as a plugin when invoked under a plugin's name, else as `cni`. */
export async function main(argv0: string | undefined, args: readonly string[]): Promise<number> {
  const name = invokedName(argv0);
  const plugin = PLUGINS[name];
  if (plugin !== undefined) return (await plugin()).main(processIO(args));
  const [verbName, ...rest] = args;
  if (verbName === undefined || verbName === "--help" || verbName === "-h" || verbName === "help") {
    process.stdout.write(usage());
    return verbName === undefined ? 2 : 0;
  }
  const entry = VERBS[verbName];
  if (entry === undefined) {
    process.stderr.write(`cni: unknown verb "${verbName}"\n\n${usage()}`);
    return 2;
  }
  const { verb } = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(verb.help.endsWith("\n") ? verb.help : `${verb.help}\n`);
    return 0;
  }
  return verb.run(processIO(rest));
}

if (import.meta.main) {
  // Compiled: argv0 is the name the binary was invoked as (a link's name), and argv[1] is
  // the embedded script under /$bunfs/. From source, argv[1] is the script path.
  const compiled = process.argv[1]?.startsWith("/$bunfs/") ?? false;
  const code = await main(compiled ? process.argv0 : process.argv[1], process.argv.slice(2));
  process.exitCode = code;
}
