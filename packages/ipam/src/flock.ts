/**
 * `flock(2)` through `bun:ffi`: the same advisory lock the reference host-local takes on
 * `<store>/lock` (go-filemutex), so our processes and the reference's exclude each other.
 * libc is opened on first use only, never at import time.
 */
import { FFIType, dlopen, read } from "bun:ffi";

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
const EINTR = 4;
const EWOULDBLOCK = 11;

interface Libc {
  flock(fd: number, op: number): number;
  errno(): number;
}

let libc: Libc | undefined;

function openLibc(): Libc {
  if (libc !== undefined) return libc;
  const symbols = {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  } as const;
  const errors: string[] = [];
  for (const name of ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"]) {
    try {
      const { symbols: s } = dlopen(name, symbols);
      libc = {
        flock: (fd, op) => s.flock(fd, op),
        errno: () => {
          const p = s.__errno_location();
          return p === null ? 0 : read.i32(p, 0);
        },
      };
      return libc;
    } catch (err) {
      errors.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`cannot load libc for flock: ${errors.join("; ")}`);
}

/** Tries to take an exclusive lock on `fd` without waiting; false when another holder has it. */
export function tryLockExclusive(fd: number): boolean {
  const c = openLibc();
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
  const c = openLibc();
  while (c.flock(fd, LOCK_UN) !== 0) {
    const errno = c.errno();
    if (errno !== EINTR) throw new Error(`flock unlock: errno ${errno}`);
  }
}
