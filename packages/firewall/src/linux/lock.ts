/**
 * The firewall's cross-process lock: every read -> compute -> write of a transaction
 * happens while holding flock(2) on one file, so two plugin processes (kubelet runs ADDs
 * in parallel) never both see a shared chain or jump missing and both add it (a lost
 * update: SPEC 8.0 H-3 and 8.5 want exactly one of each shared rule). Not
 * /run/xtables.lock: `iptables-restore --wait` takes that one itself and would wait on us.
 *
 * The lock is held while the transaction's tools run as children, across awaits, so the
 * plugin's other work goes on meanwhile. Within one process the holders of a path queue
 * up before they open the file: flock is per open file, and a second open in the same
 * process would block the one thread the first holder needs to finish (the daemon runs
 * many transactions at once).
 */
import { lockExclusiveBlocking, unlockFd } from "@tscni/kernel/flock";
// libc, not node:fs: a plugin's first transaction would otherwise load node:fs (docs/PERFORMANCE.md).
import { closeSync, mkdirSync, openSync } from "@tscni/kernel/fs";
import { dirname } from "@tscni/spec/path";
import { FirewallError } from "../firewall.ts";

/** Where the lock lives unless `TSCNI_FIREWALL_LOCK` or the caller says otherwise. */
export const DEFAULT_LOCK_PATH = "/run/tscni/firewall.lock";

/** A held or holdable firewall lock. */
export interface FirewallLock {
  /** Runs `fn` holding the lock until the promise it returns settles. */
  hold<T>(fn: () => Promise<T>): Promise<T>;
}

/** The last holder queued in this process, per lock path. */
const queues = new Map<string, Promise<unknown>>();

/** The lock on `path` (default {@link DEFAULT_LOCK_PATH}, or `TSCNI_FIREWALL_LOCK`). */
export function createFirewallLock(path = process.env.TSCNI_FIREWALL_LOCK ?? DEFAULT_LOCK_PATH): FirewallLock {
  const open = (): number => openSync(path, "a", 0o600);
  /** Holds the file lock around `fn`: called only at the head of this process's queue. */
  async function holdFile<T>(fn: () => Promise<T>): Promise<T> {
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
      return await fn();
    } finally {
      // Closing the last descriptor releases the lock too; unlocking first says so plainly.
      try {
        unlockFd(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
  return {
    hold<T>(fn: () => Promise<T>): Promise<T> {
      // Alone in the queue, `fn` starts within this call (its first child is running when it returns).
      const before = queues.get(path);
      const turn = before === undefined ? holdFile(fn) : before.then(() => holdFile(fn));
      const settled = turn.then(
        () => undefined,
        () => undefined,
      );
      queues.set(path, settled);
      // The last holder leaves no entry behind.
      void settled.then(() => queues.get(path) === settled && queues.delete(path));
      return turn;
    },
  };
}
