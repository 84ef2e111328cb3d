/**
 * `flock(2)` through `bun:ffi`: the same advisory lock the reference host-local takes on
 * `<store>/lock` (go-filemutex), so our processes and the reference's exclude each other.
 * Host-local's store and the attachment locks take it here.
 */
import { libcNow } from "./libc.ts";

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
const EINTR = 4;
const EWOULDBLOCK = 11;

/** Tries to take an exclusive lock on `fd` without waiting; false when another holder has it. */
export function tryLockExclusive(fd: number): boolean {
  const c = libcNow();
  for (;;) {
    if (c.flock(fd, LOCK_EX | LOCK_NB) === 0) return true;
    const errno = c.errno();
    if (errno === EWOULDBLOCK) return false;
    if (errno !== EINTR) throw new Error(`flock: errno ${errno}`);
  }
}

/**
 * Takes an exclusive lock on `fd`, waiting without blocking the event loop: non-blocking
 * attempts with a short, jittered backoff (a daemon running host-local in process keeps
 * serving while another process holds the lock).
 */
export async function lockExclusive(fd: number): Promise<void> {
  let delay = 0.5;
  while (!tryLockExclusive(fd)) {
    await Bun.sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 2, 8);
  }
}

/** Releases the lock on `fd`. */
export function unlockFd(fd: number): void {
  const c = libcNow();
  while (c.flock(fd, LOCK_UN) !== 0) {
    const errno = c.errno();
    if (errno !== EINTR) throw new Error(`flock unlock: errno ${errno}`);
  }
}

/**
 * Takes an exclusive lock on `fd`, blocking the thread until it is free: for locks held a
 * few milliseconds around one synchronous step (the firewall's read and write).
 */
export function lockExclusiveBlocking(fd: number): void {
  const c = libcNow();
  while (c.flock(fd, LOCK_EX) !== 0) {
    const errno = c.errno();
    if (errno !== EINTR) throw new Error(`flock: errno ${errno}`);
  }
}
