/**
 * Runs conformance cases against the plugins of a directory and reports one row per
 * (case, plugin): pass, fail with a reason, or skip with a reason.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execPlugin } from "./exec.ts";
import { Skip } from "./types.ts";
import type { Call, CaseContext, ConformanceCase, Outcome, Row } from "./types.ts";

/** Plugin names the framework cases are run against when present in the directory. */
export const KNOWN_PLUGINS: readonly string[] = [
  "loopback",
  "host-local",
  "bridge",
  "ptp",
  "portmap",
  "tuning",
  "static",
  "macvlan",
  "ipvlan",
  "vlan",
  "dummy",
  "dhcp",
  "host-device",
  "tap",
];

/** Options of a run. */
export interface RunOptions {
  dir: string;
  cases: readonly ConformanceCase[];
  /** Restrict to these plugins (default: the known plugins found in `dir`). */
  plugins?: readonly string[];
  /** Run as root (default: the real euid is 0). */
  root?: boolean;
  /** Called after each row, for progress output. */
  onRow?: (row: Row) => void;
}

/** True when `path` is an executable regular file (symlinks followed). */
function isExecutable(path: string): boolean {
  try {
    const s = statSync(path);
    return s.isFile() && (s.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The default env of a call: every CNI_* variable set, as libcni does (P-8, ENV-1). */
function callEnv(dir: string, command: string, overrides: Record<string, string>): Record<string, string> {
  return {
    CNI_COMMAND: command,
    CNI_CONTAINERID: "tscni-conformance",
    CNI_NETNS: "/var/run/netns/tscni-conformance-absent",
    CNI_IFNAME: "eth0",
    CNI_ARGS: "",
    CNI_PATH: dir,
    ...overrides,
  };
}

function contextFor(dir: string, plugin: string, root: boolean, tmp: string): CaseContext {
  const bin = join(dir, plugin);
  return {
    dir,
    plugin,
    root,
    tmp,
    call: (command: string, call: Call = {}): Promise<Outcome> => {
      const stdin =
        call.stdin === undefined ? "" : typeof call.stdin === "string" ? call.stdin : JSON.stringify(call.stdin);
      return execPlugin(bin, callEnv(dir, command, call.env ?? {}), stdin);
    },
  };
}

async function runOne(c: ConformanceCase, dir: string, plugin: string, root: boolean): Promise<Row> {
  const row = { id: c.id, plugin, rule: c.rule };
  if (c.needsRoot === true && !root)
    return { ...row, status: "skip", reason: "needs root (it uses throwaway network namespaces)" };
  const tmp = mkdtempSync(join(tmpdir(), "tscni-conf-"));
  try {
    await c.run(contextFor(dir, plugin, root, tmp));
    return { ...row, status: "pass", reason: "" };
  } catch (err) {
    if (err instanceof Skip) return { ...row, status: "skip", reason: err.message };
    return { ...row, status: "fail", reason: err instanceof Error ? err.message : String(err) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs every case on every plugin it applies to, one after the other (cases may share
 * host-wide state such as the kernel, so they never overlap).
 *
 * @example const rows = await runConformance({ dir: "/opt/cni/bin", cases: ALL_CASES })
 */
export async function runConformance(opts: RunOptions): Promise<Row[]> {
  if (!existsSync(opts.dir)) throw new Error(`plugin directory "${opts.dir}" does not exist`);
  const root = opts.root ?? process.getuid?.() === 0;
  const wanted = opts.plugins ?? KNOWN_PLUGINS;
  const present = wanted.filter((p) => isExecutable(join(opts.dir, p)));
  const rows: Row[] = [];
  for (const c of opts.cases) {
    const targets = c.plugin === "*" ? present : [c.plugin];
    for (const plugin of targets) {
      const row = present.includes(plugin)
        ? await runOne(c, opts.dir, plugin, root)
        : {
            id: c.id,
            plugin,
            rule: c.rule,
            status: "skip" as const,
            reason: `no executable "${plugin}" in ${opts.dir}`,
          };
      rows.push(row);
      opts.onRow?.(row);
    }
  }
  return rows;
}
