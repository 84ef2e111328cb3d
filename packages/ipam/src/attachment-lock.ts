/**
 * One attachment at a time (LC-2, §1.9 lifecycle): an exclusive `flock` on a small file
 * per (network, containerID, ifname), held for a whole ADD, CHECK or DEL, so an ADD and a
 * DEL of the same attachment never interleave (issue 16 item 4: a runtime's timeout and
 * retry produces exactly that overlap). The runtime takes it beside the result cache and
 * our bridge and ptp take it in host-local's data dir, so both our exec path and a foreign
 * runtime driving our plugins are serialised.
 *
 * The file is removed when the holder is done, so nothing accumulates. A waiter that got
 * the lock on a file another holder removed meanwhile sees that the path no longer names
 * its inode and starts again on the new file; so two holders never coexist.
 */
import { closeSync, fstatSync, mkdirSync, openSync, statSync, unlinkSync } from "@tscni/kernel/fs";
import { join } from "@tscni/spec/path";
import { lockExclusive, tryLockExclusive, unlockFd } from "@tscni/kernel/flock";

/** The directory of our plugins' attachment locks inside host-local's data dir (a dot name is never a network's, VAL-1). */
export const PLUGIN_LOCK_DIR = ".tscni-locks";

/** The attachment a lock guards. */
export interface AttachmentKey {
  readonly network: string;
  readonly containerID: string;
  readonly ifName: string;
}

/** The lock file of `key` in `dir`: a digest, so any ID and ifname make a safe file name. */
export function attachmentLockPath(dir: string, key: AttachmentKey): string {
  const digest = new Bun.CryptoHasher("sha256")
    .update(JSON.stringify([key.network, key.containerID, key.ifName]))
    .digest("hex");
  return join(dir, digest);
}

function sameInode(fd: number, path: string): boolean {
  try {
    return statSync(path).ino === fstatSync(fd).ino;
  } catch {
    return false; // removed by the previous holder
  }
}

/** Takes the lock of `key` in `dir` (created, mode 0700); resolves to its release function. */
export async function lockAttachment(dir: string, key: AttachmentKey): Promise<() => void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = attachmentLockPath(dir, key);
  for (;;) {
    const fd = openSync(path, "a", 0o600);
    try {
      await lockExclusive(fd);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    if (sameInode(fd, path)) {
      return () => {
        try {
          unlinkSync(path); // under the lock: waiters notice the inode changed
        } catch {
          // already gone
        }
        unlockFd(fd);
        closeSync(fd);
      };
    }
    unlockFd(fd);
    closeSync(fd);
  }
}

/** Runs `fn` holding the lock of `key` in `dir`; the lock is released however `fn` ends. */
export async function withAttachmentLock<T>(dir: string, key: AttachmentKey, fn: () => Promise<T>): Promise<T> {
  const release = await lockAttachment(dir, key);
  try {
    return await fn();
  } finally {
    release();
  }
}

/**
 * True when some process holds the lock of `key` in `dir` right now: an ADD, CHECK or DEL
 * of that attachment is in flight, so a repair must not judge its reservations (GC-8).
 * Never creates the file; takes and drops the lock at once when it is free.
 */
export function attachmentBusy(dir: string, key: AttachmentKey): boolean {
  let fd: number;
  try {
    fd = openSync(attachmentLockPath(dir, key), "r");
  } catch {
    return false; // no lock file: nobody holds it
  }
  try {
    if (!tryLockExclusive(fd)) return true;
    unlockFd(fd);
    return false;
  } finally {
    closeSync(fd);
  }
}
