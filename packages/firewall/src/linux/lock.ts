/**
 * The firewall's cross-process lock: every read -> compute -> write of a transaction
 * happens while holding flock(2) on one file, so two plugin processes (kubelet runs ADDs
 * in parallel) never both see a shared chain or jump missing and both add it (a lost
 * update: SPEC 8.0 H-3 and 8.5 want exactly one of each shared rule). Not
 * /run/xtables.lock: `iptables-restore --wait` takes that one itself and would wait on us.
 *
 * The lock is taken and released synchronously, never across an `await`
 * (one process's own transactions cannot interleave: flock is per open file, and a
 * second open in the same process would wait forever).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { FirewallError } from "../firewall.ts";

/** Where the lock lives unless `TSCNI_FIREWALL_LOCK` or the caller says otherwise. */
export const DEFAULT_LOCK_PATH = "/run/tscni/firewall.lock";

/** A held or holdable firewall lock. */
export interface FirewallLock {
  /** Runs `fn` holding the lock (synchronously). */
  hold<T>(fn: () => T): T;
}

interface LockLibc {
  open(path: Uint8Array, flags: number, mode: number): number;
  flock(fd: number, op: number): number;
  close(fd: number): number;
  errno(): number;
}

const O_RDWR = 2;
const O_CREAT = 0o100;
const O_CLOEXEC = 0o2000000;
const LOCK_EX = 2;
const LOCK_UN = 8;
const EINTR = 4;
const ENOENT = 2;

let lib: LockLibc | undefined;

/** libc's open/flock through bun:ffi, loaded on the first lock (not at import). */
function loadLibc(): LockLibc {
  if (lib !== undefined) return lib;
  const { dlopen, FFIType: T, read } = require("bun:ffi") as typeof import("bun:ffi");
  const { symbols: s } = dlopen("libc.so.6", {
    open: { args: [T.ptr, T.i32, T.u32], returns: T.i32 },
    flock: { args: [T.i32, T.i32], returns: T.i32 },
    close: { args: [T.i32], returns: T.i32 },
    __errno_location: { args: [], returns: T.ptr },
  });
  lib = {
    open: (p, f, m) => s.open(p, f, m),
    flock: (fd, op) => s.flock(fd, op),
    close: (fd) => s.close(fd),
    errno: () => {
      const p = s.__errno_location();
      return p === null ? 0 : read.i32(p, 0);
    },
  };
  return lib;
}

function cString(s: string): Uint8Array {
  const b = new TextEncoder().encode(s);
  const z = new Uint8Array(b.length + 1);
  z.set(b);
  return z;
}

/** The lock on `path` (default {@link DEFAULT_LOCK_PATH}, or `TSCNI_FIREWALL_LOCK`). */
export function createFirewallLock(path = process.env.TSCNI_FIREWALL_LOCK ?? DEFAULT_LOCK_PATH): FirewallLock {
  const cpath = cString(path);
  return {
    hold<T>(fn: () => T): T {
      const c = loadLibc();
      let fd = c.open(cpath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600);
      if (fd < 0 && c.errno() === ENOENT) {
        // Only the first lock on a node makes the directory (/run is a tmpfs).
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        fd = c.open(cpath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600);
      }
      if (fd < 0) throw new FirewallError(`cannot open the firewall lock ${path}: errno ${c.errno()}`);
      try {
        while (c.flock(fd, LOCK_EX) !== 0) {
          const errno = c.errno();
          if (errno !== EINTR) throw new FirewallError(`cannot lock ${path}: errno ${errno}`);
        }
        return fn();
      } finally {
        // Closing the last descriptor releases the lock too; unlocking first says so plainly.
        c.flock(fd, LOCK_UN);
        c.close(fd);
      }
    },
  };
}
