/**
 * The attachment index of the disk store: one small file per (containerID, ifname)
 * listing the addresses it holds, under `<dataDir>/.tscni-index/<network>/`. It exists so that an
 * allocation does not read every reservation file for the duplicate check (upstream's
 * `GetByID` does, which makes the 10,000th allocation in a /16 ~100x slower than the first).
 *
 * Why it is safe next to the reference host-local, which shares the directory:
 * - it is a hint, never the truth: every address it lists is checked against its
 *   reservation file before use, and GC rebuilds it from the reservation files;
 * - index file names are hex digests (never an IP), and their content starts with a
 *   header line, so even a walk that reached them would never take one for a reservation;
 * - it sits beside the store, not in it, so `<dataDir>/<network>/` holds exactly the
 *   reference's layout (SPEC.md 8.3), and `.tscni-index` can never be a network's
 *   directory: network names start with a letter or digit (VAL-1);
 * - it knows when it may be stale: after each of our own changes (under the flock) the
 *   store directory's mtime is set to a unique sentinel in the past and recorded in
 *   `.synced`. Any change another implementation makes (the reference reserving or
 *   releasing an address) sets the mtime to "now", which never equals the sentinel, so
 *   the next lookup reads every reservation file once and rebuilds the index. A store with
 *   legacy ID-only files is never marked fresh, so those are always found by a scan.
 *   DEL and GC always read the reservation files themselves.
 */
import {
  existsSync,
  mkdirSync,
  opendirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "@tscni/kernel/fs";
import { basename, dirname, join } from "@tscni/spec/path";
import { type IP, formatIP, parseIP } from "@tscni/spec/ipnet";
import { formatHolder } from "./store.ts";

/** The index directory's name inside the data dir, beside the networks' directories. */
export const INDEX_DIR = ".tscni-index";

/** The index directory of the store at `<dataDir>/<network>`: `<dataDir>/.tscni-index/<network>`. */
export function indexDirOf(storeDir: string): string {
  return join(dirname(storeDir), INDEX_DIR, basename(storeDir));
}
const HEADER = "tscni attachment index v1";
/** The file recording the store directory's mtime when the index was last complete. */
const SYNCED = ".synced";

let counter = 0;

/**
 * Writes `data` to `path` atomically: a temporary file in `tmpDir` (on the same file
 * system, outside the store so the reference never sees a stray file), then rename.
 */
export function writeAtomic(tmpDir: string, path: string, data: string): void {
  const tmp = join(tmpDir, `tmp.${process.pid}.${++counter}.${Math.random().toString(36).slice(2)}`);
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
}

/** The index of one store directory. */
export class AttachmentIndex {
  /** The directory holding this store's index files. */
  readonly dir: string;

  constructor(storeDir: string) {
    // Made on the first entry written, not here: a network with no attachment of ours has
    // no index at all, so a torn-down network leaves no file of ours behind.
    this.dir = indexDirOf(storeDir);
  }

  /** The index file of (id, ifname): a digest, so any ID and ifname make a safe name. */
  pathOf(id: string, ifname: string): string {
    const digest = new Bun.CryptoHasher("sha256").update(formatHolder(id, ifname)).digest("hex");
    return join(this.dir, digest);
  }

  /** True when the index names files that are not index entries (`.synced`, temp files). */
  static isBookkeeping(name: string): boolean {
    return name.startsWith(".") || name.startsWith("tmp.");
  }

  /** True when nothing but us changed the store since the index was last complete. */
  isFresh(storeDir: string): boolean {
    try {
      const recorded = readFileSync(join(this.dir, SYNCED), "utf8");
      return recorded === String(statSync(storeDir, { bigint: true }).mtimeNs);
    } catch {
      return false;
    }
  }

  /**
   * Records that the index is complete now: stamps the store directory's mtime with a
   * sentinel a few seconds in the past (random microseconds), so that any later change by
   * anyone else moves it to "now" and can never look like ours. Call under the store lock.
   */
  markFresh(storeDir: string): void {
    // An empty index has no directory and needs no stamp: the next lookup scans the store.
    if (!existsSync(this.dir)) return;
    const sentinel = Math.floor(Date.now() / 1000) - 5 + Math.floor(Math.random() * 999_999) / 1_000_000;
    utimesSync(storeDir, new Date(), sentinel);
    // In place, not temp + rename: it is read and written only under the lock, a torn
    // stamp reads as stale (a scan), and a rename over it costs an ext4 flush.
    writeFileSync(join(this.dir, SYNCED), String(statSync(storeDir, { bigint: true }).mtimeNs), { mode: 0o600 });
  }

  /** Forgets that the index was complete, so the next lookup scans. */
  markStale(): void {
    try {
      unlinkSync(join(this.dir, SYNCED));
    } catch {
      // already stale
    }
  }

  /** The addresses the index lists for (id, ifname); unverified. */
  read(id: string, ifname: string): IP[] {
    let text: string;
    try {
      text = readFileSync(this.pathOf(id, ifname), "utf8");
    } catch {
      return [];
    }
    const [header, ...lines] = text.split("\n");
    if (header !== HEADER) return [];
    return lines.flatMap((l) => {
      const ip = parseIP(l);
      return ip === undefined ? [] : [ip];
    });
  }

  /** Replaces the list of (id, ifname); an empty list removes its file. */
  write(id: string, ifname: string, ips: readonly IP[]): void {
    const path = this.pathOf(id, ifname);
    if (ips.length === 0) {
      try {
        unlinkSync(path);
      } catch {
        // nothing indexed
      }
      this.removeIfEmpty();
      return;
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    writeAtomic(this.dir, path, [HEADER, ...ips.map(formatIP)].join("\n"));
  }

  /**
   * After the last entry went: removes the stamp, this network's index directory and the
   * index root when that is empty too. Reads at most until the first entry (O(1) however
   * large the index). Call under the store lock.
   */
  removeIfEmpty(): void {
    let dir: ReturnType<typeof opendirSync>;
    try {
      dir = opendirSync(this.dir);
    } catch {
      return; // no index
    }
    try {
      for (let e = dir.readSync(); e !== null; e = dir.readSync()) if (!AttachmentIndex.isBookkeeping(e.name)) return;
    } finally {
      dir.closeSync();
    }
    this.markStale();
    for (const d of [this.dir, dirname(this.dir)]) {
      try {
        rmdirSync(d);
      } catch {
        return; // not empty (another network's index, or a stray temp file): leave it
      }
    }
  }
}
