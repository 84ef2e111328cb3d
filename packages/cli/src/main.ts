/**
 * The one binary's entry: the basename of argv[0] picks a plugin; otherwise it is the
 * `cni` command and argv[1] picks a verb.
 */
import { PLUGIN_VERSIONS, versionReply } from "./plugin-versions.ts";
import { PLUGINS } from "./plugins.ts";
import { VERBS } from "./verbs.ts";
import type { CommandIO } from "./io.ts";

/** The name this process was invoked as (a symlink's name for plugins). */
export function invokedName(argv0: string | undefined): string {
  const base = (argv0 ?? "cni").split("/").pop() ?? "cni";
  return base;
}

async function processIO(args: readonly string[]): Promise<CommandIO> {
  // Through libc, not node:fs nor Bun.stdin/process.stdout: those were the largest module
  // costs of a plugin call (docs/PERFORMANCE.md). The shim shares it (server shim.ts).
  const { standardStreams } = await import("@tscni/kernel/stdio");
  return { argv: args, env: process.env, ...standardStreams() };
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
  if (plugin !== undefined) {
    // VERSION is static data: answer it before any plugin code loads (start-up is the
    // whole cost of this call). See plugin-versions.ts.
    const versions = PLUGIN_VERSIONS[name];
    if (versions !== undefined && process.env.CNI_COMMAND === "VERSION") {
      await Bun.write(Bun.stdout, versionReply(versions));
      return 0;
    }
    // The shim does its own I/O through libc: node:fs (3 to 10 ms of a start) never loads.
    if (name === "cni-shim") return (await import("@tscni/server/shim")).runProcess(args);
    return (await plugin()).main(await processIO(args));
  }
  const io = await processIO(args);
  const [verbName, ...rest] = args;
  if (verbName === undefined || verbName === "--help" || verbName === "-h" || verbName === "help") {
    io.stdout(usage());
    return verbName === undefined ? 2 : 0;
  }
  const entry = VERBS[verbName];
  if (entry === undefined) {
    io.stderr(`cni: unknown verb "${verbName}"\n\n${usage()}`);
    return 2;
  }
  // The binary starts with JIT thresholds raised for one-shot calls (scripts/build.ts);
  // the daemon is long-lived, so its hot code gets the normal JIT policy.
  if (verbName === "daemon") Bun.unsafe.setJITPolicy(1);
  const { verb } = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(verb.help.endsWith("\n") ? verb.help : `${verb.help}\n`);
    return 0;
  }
  return verb.run({ ...io, argv: rest });
}

if (import.meta.main) {
  // Compiled: argv0 is the name the binary was invoked as (a link's name), and argv[1] is
  // the embedded script under /$bunfs/. From source, argv[1] is the script path.
  const compiled = process.argv[1]?.startsWith("/$bunfs/") ?? false;
  const invoked = compiled ? process.argv0 : process.argv[1];
  const code = await main(invoked, process.argv.slice(2));
  // A plugin writes its output synchronously and leaves nothing running, so it can exit
  // at once: Bun's orderly shutdown once the event loop drains costs ~2 ms per call.
  if (PLUGINS[invokedName(invoked)] !== undefined) process.exit(code);
  process.exitCode = code;
}
