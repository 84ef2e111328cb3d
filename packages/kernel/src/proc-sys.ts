/**
 * Reading and writing /proc/sys files, shared by both Linux drivers. The caller has
 * already switched the thread into the right namespace: /proc/sys/net shows the netns
 * of the thread that opens the file.
 */
import { readFileSync, writeFileSync } from "./fs.ts";
import { KernelError } from "./kernel.ts";

/** A /proc/sys file's content, or undefined when the key does not exist. */
export function readProcSys(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Writes a /proc/sys file; a KernelError `not-found` (no such key), `invalid` or `other`. */
export function writeProcSys(path: string, value: string): void {
  try {
    writeFileSync(path, value);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const kind = code === "ENOENT" ? "not-found" : code === "EINVAL" ? "invalid" : "other";
    throw new KernelError(kind, `write "${path}": ${code ?? String(e)}`);
  }
}
