/**
 * The result cache on disk with blocking calls, for a one-shot process (`cni add|check|del`,
 * issue 11 item 4c): the same layout, modes and atomic write as {@link DiskCache} (CACHE-1,
 * CACHE-4), but through node:fs's synchronous calls. A process that has nothing to overlap
 * with its cache write pays, for the asynchronous calls, the start of libuv's thread pool
 * (two to four threads) and an event-loop turn per call: ~9 calls for one write. The daemon
 * keeps {@link DiskCache}: its concurrent calls must not wait on each other's fsync.
 */
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { DiskCache, TEMP_PREFIX } from "./cache-disk.ts";

/** {@link DiskCache} with blocking calls (same files, same guarantees). */
export class BlockingDiskCache extends DiskCache {
  /** Writes `text` as file `name`, replacing any previous record atomically. */
  override async write(name: string, text: string): Promise<void> {
    mkdirSync(this.resultsDir, { recursive: true, mode: 0o700 });
    const temp = join(this.resultsDir, `${TEMP_PREFIX}${name}-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const fd = openSync(temp, "wx", 0o600);
    try {
      const bytes = new TextEncoder().encode(text);
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      chmodSync(temp, 0o600); // the umask may have narrowed it further; never widen beyond 0600
      renameSync(temp, join(this.resultsDir, name));
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    try {
      const dir = openSync(this.resultsDir, "r");
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    } catch {
      // some file systems refuse fsync on a directory; the rename is still atomic
    }
  }

  /** The text of file `name`, or undefined when it cannot be read (CACHE-5). */
  override async read(name: string): Promise<string | undefined> {
    try {
      return readFileSync(join(this.resultsDir, name), "utf8");
    } catch {
      return undefined;
    }
  }

  /** Removes file `name`; a missing file is not an error. */
  override async remove(name: string): Promise<void> {
    rmSync(join(this.resultsDir, name), { force: true });
  }

  /** The record file names, sorted (GA-1); an absent directory lists as empty. */
  override async names(): Promise<string[]> {
    let entries: string[];
    try {
      entries = readdirSync(this.resultsDir);
    } catch (err) {
      if ((err as { code?: string }).code === "ENOENT") return [];
      throw err;
    }
    return entries.filter((n) => !n.startsWith(TEMP_PREFIX)).sort();
  }
}
