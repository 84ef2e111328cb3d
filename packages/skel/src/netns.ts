/**
 * The real "is this my own network namespace?" check behind error code 8 (§1.11 step 7):
 * two namespace files are the same namespace when device and inode match.
 */
import { statSync } from "node:fs";

/**
 * True when `path` names the namespace this thread runs in. A path that cannot be opened
 * is not this namespace, so DEL with a deleted netns passes (§1.11 step 7).
 *
 * @example isOwnNetns("/proc/self/ns/net") // true
 */
export function isOwnNetns(path: string): boolean {
  if (path === "") return false;
  let target;
  try {
    target = statSync(path);
  } catch {
    return false;
  }
  for (const own of ["/proc/thread-self/ns/net", "/proc/self/ns/net"]) {
    try {
      const s = statSync(own);
      return s.dev === target.dev && s.ino === target.ino;
    } catch {
      // try the next form; kernels before 3.17 have no /proc/thread-self
    }
  }
  return false;
}
