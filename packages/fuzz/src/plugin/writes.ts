/**
 * Which files a plugin wrote, read from an `strace -f -o FILE` log of the path-changing
 * calls, and which of them lie outside the directories a plugin may write to. Pure.
 */
import { isAbsolute, normalize, resolve } from "node:path";

/** The syscalls the sandbox traces (`strace -e trace=...`). */
export const TRACED_SYSCALLS = [
  "openat",
  "open",
  "creat",
  "mkdir",
  "mkdirat",
  "rename",
  "renameat",
  "renameat2",
  "unlink",
  "unlinkat",
  "symlink",
  "symlinkat",
  "link",
  "linkat",
] as const;

/**
 * Where a plugin may write besides the run's temp dir: the CNI data and cache dirs, our
 * runtime dir, sysctls and devices, and the xtables lock every iptables call takes.
 */
export const ALLOWED_WRITE_DIRS: readonly string[] = [
  "/var/lib/cni",
  "/run/cni",
  "/var/run/cni",
  "/run/tscni",
  "/proc/sys/net",
  "/dev",
  "/run/xtables.lock",
];

const OPEN_WRITE = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/;
// `PID  name(args) = ret`; a call resumed after another thread's line is rejoined first.
const LINE = /^(?:\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+|\?)/;

/** The string arguments of a call's argument text, in order (strace quotes them with C escapes). */
function stringArgs(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    out.push(
      (m[1] ?? "").replace(/\\x([0-9a-f]{2})|\\(.)/g, (_, hex: string | undefined, c: string | undefined) =>
        hex !== undefined
          ? String.fromCharCode(Number.parseInt(hex, 16))
          : c === "n"
            ? "\n"
            : c === "t"
              ? "\t"
              : (c ?? ""),
      ),
    );
  }
  return out;
}

/** Joins `<unfinished ...>` / `<... resumed>` pairs so every call is one line. */
function joinResumed(lines: readonly string[]): string[] {
  const pending = new Map<string, string>();
  const out: string[] = [];
  for (const line of lines) {
    const pid = /^(\d+)\s+/.exec(line)?.[1] ?? "";
    const unfinished = line.indexOf(" <unfinished ...>");
    if (unfinished !== -1) {
      pending.set(pid, line.slice(0, unfinished));
      continue;
    }
    const resumed = /^\d+\s+<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed !== null) {
      out.push(`${pending.get(pid) ?? ""}${resumed[1] ?? ""}`);
      pending.delete(pid);
      continue;
    }
    out.push(line);
  }
  return out;
}

/** Every path a traced plugin created, wrote, renamed, linked or removed (successful calls only). */
export function writtenPaths(log: string, cwd: string): string[] {
  const paths: string[] = [];
  for (const line of joinResumed(log.split("\n"))) {
    const m = LINE.exec(line);
    if (m === null) continue;
    const [, call = "", args = "", ret = ""] = m;
    if (ret === "?" || ret.startsWith("-")) continue;
    const strs = stringArgs(args);
    // Relative paths are taken against the cwd; `openat(fd, ...)` with a real fd is rare and kept as given.
    const abs = (p: string) => normalize(isAbsolute(p) ? p : resolve(cwd, p));
    if (call === "open" || call === "openat") {
      if (OPEN_WRITE.test(args) && strs[0] !== undefined) paths.push(abs(strs[0]));
    } else if (call === "symlink" || call === "symlinkat") {
      // The link is the last path; the target is only text.
      const link = strs[strs.length - 1];
      if (link !== undefined) paths.push(abs(link));
    } else {
      for (const p of strs) paths.push(abs(p));
    }
  }
  return paths;
}

/** True when `path` is `dir` or inside it. */
function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/** The paths of `paths` outside `allowed` (deduplicated, in order). */
export function outsideAllowed(paths: readonly string[], allowed: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) if (!allowed.some((d) => within(p, d))) out.add(p);
  return [...out];
}
