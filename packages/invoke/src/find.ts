/**
 * Finding a plugin binary in a list of directories (SPEC.md §7.2, FP-1..FP-5).
 */
import { join } from "@tscni/spec/path";
import { CniError, ErrorCode } from "@tscni/spec";

/** True when `path` is a regular file (symlinks followed); throws when it cannot be read. */
export type IsFile = (path: string) => boolean;

// statSync, not node:fs/promises: that module alone costs ~2 ms of a plugin's start-up; and
// loaded on first use, so a plugin passing its libc stat never loads node:fs at all.
const nodeIsFile: IsFile = (path) => (require("node:fs") as typeof import("node:fs")).statSync(path).isFile();

/**
 * Returns the full path of plugin `name` in the first directory of `paths` that holds it as
 * a regular file (symlinks followed, directories skipped, the executable bit not checked:
 * FP-4). Throws the reference's errors for an empty name (FP-1), a name with a path
 * separator (FP-2), no paths (FP-3) and nothing found (FP-5).
 *
 * @example await findInPath("bridge", ["/opt/cni/bin"]) // "/opt/cni/bin/bridge"
 */
export async function findInPath(name: string, paths: readonly string[], isFile: IsFile = nodeIsFile): Promise<string> {
  if (name === "") throw new CniError(ErrorCode.Internal, "no plugin name provided");
  if (name.includes("/")) throw new CniError(ErrorCode.Internal, `invalid plugin name: ${name}`);
  if (paths.length === 0) throw new CniError(ErrorCode.Internal, "no paths provided");
  for (const dir of paths) {
    const full = join(dir, name);
    try {
      if (isFile(full)) return full;
    } catch {
      // missing or unreadable: try the next directory
    }
  }
  throw new CniError(ErrorCode.Internal, `failed to find plugin "${name}" in path [${paths.join(" ")}]`);
}

/** Splits a `CNI_PATH` value with the OS list separator (`:` on Linux, P-4), dropping empty entries. */
export function splitPathList(value: string | undefined): string[] {
  return (value ?? "").split(":").filter((p) => p !== "");
}
