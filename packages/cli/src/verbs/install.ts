/**
 * `cni install --dir DIR`: put this one binary in a plugin directory as `cni` and link
 * every plugin name it can be (`bridge`, `ptp`, `host-local`, `loopback`, ...: the
 * PLUGINS table) to it, so runtimes find it in CNI_PATH like the reference plugins.
 * The copy is written beside the target and renamed over it, so a running binary is
 * never rewritten in place; re-running replaces links and the binary.
 */
import { chmodSync, copyFileSync, lstatSync, mkdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { CommandIO, Verb } from "../io.ts";
import { PLUGINS } from "../plugins.ts";

const HELP = `usage: cni install --dir DIR [--from PATH]

Copy the running binary to DIR/cni and link every plugin name to it:
  ${Object.keys(PLUGINS).join(", ")}

  --dir DIR     the plugin directory (for example /opt/cni/bin); created if missing
  --from PATH   the binary to install (default: this binary, when it is the compiled one)
`;

/** True when this process is the compiled binary (its script is embedded under /$bunfs/). */
export function runningCompiled(argv: readonly string[] = process.argv): boolean {
  return argv[1]?.startsWith("/$bunfs/") ?? false;
}

/** Copies `source` to `dir/cni` (mode 0755) and links each of `names` to it; returns what it did. */
export function installBinary(source: string, dir: string, names: readonly string[]): string[] {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const target = join(dir, "cni");
  const tmp = join(dir, `.cni.install-${process.pid}`);
  try {
    copyFileSync(source, tmp);
    chmodSync(tmp, 0o755);
    renameSync(tmp, target);
  } finally {
    rmSync(tmp, { force: true });
  }
  for (const name of names) {
    const link = join(dir, name);
    let existing: ReturnType<typeof lstatSync> | undefined;
    try {
      existing = lstatSync(link);
    } catch {
      existing = undefined;
    }
    if (existing?.isDirectory() === true) throw new Error(`"${link}" is a directory`);
    if (existing !== undefined) rmSync(link);
    // Relative, so the directory can be moved or mounted elsewhere as a whole.
    symlinkSync("cni", link);
  }
  return [`installed ${target}`, `linked ${names.join(", ")} -> cni`];
}

function parse(argv: readonly string[]): { dir?: string; from?: string } | string {
  const out: { dir?: string; from?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    const [flag, inline] =
      a.startsWith("--") && a.includes("=")
        ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
        : [a, undefined];
    if (flag !== "--dir" && flag !== "--from") return `unexpected argument "${a}"`;
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") return `option "${flag}" needs a value`;
    if (flag === "--dir") out.dir = value;
    else out.from = value;
  }
  return out;
}

async function run(io: CommandIO): Promise<number> {
  const args = parse(io.argv);
  if (typeof args === "string" || args.dir === undefined) {
    io.stderr(`cni install: ${typeof args === "string" ? args : "--dir is required"}\n\n${HELP}`);
    return 2;
  }
  const source = args.from ?? (runningCompiled() ? process.execPath : undefined);
  if (source === undefined) {
    io.stderr("cni install: not running as the compiled binary; build it (bun run build) or pass --from PATH\n");
    return 2;
  }
  try {
    for (const line of installBinary(source, args.dir, Object.keys(PLUGINS))) io.stdout(`${line}\n`);
  } catch (e) {
    io.stderr(`cni install: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  return 0;
}

/** The `install` verb. */
export const verb: Verb = {
  summary: "copy this binary into a plugin directory and link every plugin name to it",
  help: HELP,
  run,
};
