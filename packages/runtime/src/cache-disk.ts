/**
 * The result cache on disk, in libcni's layout (CACHE-1): `<dir>/results/<net>-<cid>-<if>`,
 * directory 0700, files 0600. Writes are atomic (temp file, fsync, rename), so a crash
 * leaves either the old record or the new one, never a torn file.
 */
import { chmod, mkdir, open, readFile, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";

/** Prefix of in-flight temp files; listings skip them. */
export const TEMP_PREFIX = ".tscni-tmp-";

/** The files of one cache directory. */
export class DiskCache {
  /** The `results` directory. */
  readonly resultsDir: string;

  constructor(readonly cacheDir: string) {
    this.resultsDir = join(cacheDir, "results");
  }

  /** Writes `text` as file `name`, replacing any previous record atomically. */
  async write(name: string, text: string): Promise<void> {
    await mkdir(this.resultsDir, { recursive: true, mode: 0o700 });
    const temp = join(this.resultsDir, `${TEMP_PREFIX}${name}-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await chmod(temp, 0o600); // the umask may have narrowed it further; never widen beyond 0600
      await rename(temp, join(this.resultsDir, name));
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    await this.#syncDir();
  }

  async #syncDir(): Promise<void> {
    try {
      const dir = await open(this.resultsDir, "r");
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch {
      // some file systems refuse fsync on a directory; the rename is still atomic
    }
  }

  /** The text of file `name`, or undefined when it cannot be read (CACHE-5). */
  async read(name: string): Promise<string | undefined> {
    try {
      return await readFile(join(this.resultsDir, name), "utf8");
    } catch {
      return undefined;
    }
  }

  /** Removes file `name`; a missing file is not an error. */
  async remove(name: string): Promise<void> {
    await rm(join(this.resultsDir, name), { force: true });
  }

  /** The record file names, sorted (GA-1); an absent directory lists as empty. */
  async names(): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(this.resultsDir);
    } catch (err) {
      if ((err as { code?: string }).code === "ENOENT") return [];
      throw err;
    }
    return entries.filter((n) => !n.startsWith(TEMP_PREFIX)).sort();
  }
}
