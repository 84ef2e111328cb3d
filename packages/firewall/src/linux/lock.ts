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
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { lockExclusiveBlocking, unlockFd } from "@tscni/kernel/flock";
import { FirewallError } from "../firewall.ts";

/** Where the lock lives unless `TSCNI_FIREWALL_LOCK` or the caller says otherwise. */
export const DEFAULT_LOCK_PATH = "/run/tscni/firewall.lock";

/** A held or holdable firewall lock. */
export interface FirewallLock {
  /** Runs `fn` holding the lock (synchronously). */
  hold<T>(fn: () => T): T;
}

/** The lock on `path` (default {@link DEFAULT_LOCK_PATH}, or `TSCNI_FIREWALL_LOCK`). */
export function createFirewallLock(path = process.env.TSCNI_FIREWALL_LOCK ?? DEFAULT_LOCK_PATH): FirewallLock {
  const open = (): number => openSync(path, "a", 0o600);
  return {
    hold<T>(fn: () => T): T {
      let fd: number;
      try {
        fd = open();
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT")
          throw new FirewallError(`cannot open the firewall lock ${path}: ${(e as Error).message}`);
        // Only the first lock on a node makes the directory (/run is a tmpfs).
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        fd = open();
      }
      try {
        try {
          lockExclusiveBlocking(fd);
        } catch (e) {
          throw new FirewallError(`cannot lock ${path}: ${(e as Error).message}`);
        }
        return fn();
      } finally {
        // Closing the last descriptor releases the lock too; unlocking first says so plainly.
        try {
          unlockFd(fd);
        } finally {
          closeSync(fd);
        }
      }
    },
  };
}
