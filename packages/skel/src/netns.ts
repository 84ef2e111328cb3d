/**
 * The real "is this my own network namespace?" check behind error code 8 (§1.11 step 7):
 * two namespace files are the same namespace when device and inode match.
 */

/** `statSync`'s shape as far as this check goes (node:fs's, or the libc one plugins pass). */
export type StatDevIno = (path: string) => { dev: number; ino: number };

// node:fs on first use only: the plugins pass a stat through libc (SkelPorts.sameNetns),
// so their path never loads node:fs (docs/PERFORMANCE.md).
const nodeStat: StatDevIno = (path) => (require("node:fs") as typeof import("node:fs")).statSync(path);

/**
 * True when `path` names the namespace this thread runs in. A path that cannot be opened
 * is not this namespace, so DEL with a deleted netns passes (§1.11 step 7).
 *
 * @example isOwnNetns("/proc/self/ns/net") // true
 */
export function isOwnNetns(path: string, statSync: StatDevIno = nodeStat): boolean {
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
