/**
 * The disk Store (`backend/disk/backend.go`), byte-compatible with the reference so that
 * either implementation can read and write the other's data dir (§8.3 On-disk layout):
 *
 *   <dataDir>/<net>/                      mode 0755
 *   <dataDir>/<net>/lock                  empty; flock(LOCK_EX) around every change
 *   <dataDir>/<net>/<ip>                  mode 0600, `<trimmed cid>\r\n<ifname>`, no newline
 *   <dataDir>/<net>/last_reserved_ip.<i>  the set's last reserved IP as text
 *   <dataDir>/.tscni-index/<net>/         our attachment index, beside the store (store-disk-index.ts)
 *
 * Reservations are made by exclusive create, so two allocators never share an address
 * even without the lock. `last_reserved_ip` is rewritten in place under the lock, as the
 * reference writes it (`os.WriteFile`), and only read under the lock: a rename over it
 * would make ext4 flush the new file at once (auto_da_alloc), ~0.2 to 1 ms per ADD.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "@tscni/kernel/fs";
import { join } from "@tscni/spec/path";
import type { Attachment } from "@tscni/spec";
import { lockExclusive, unlockFd } from "@tscni/kernel/flock";
import { type IP, formatIP, ipEqual, parseIP } from "@tscni/spec/ipnet";
import { isDamagedCopyOf } from "./damage.ts";
import { AttachmentIndex } from "./store-disk-index.ts";
import {
  type GcReport,
  type Holder,
  type Reservation,
  type Store,
  formatHolder,
  holderValidator,
  holdsExactly,
  holdsLegacy,
  parseHolder,
} from "./store.ts";

/** The prefix of the per-range-set round-robin files. */
export const LAST_IP_PREFIX = "last_reserved_ip.";
/** The lock file's name. */
export const LOCK_FILE = "lock";

/** A Store over `<dataDir>/<network>/`; open it with {@link openDiskStore}. */
export class DiskStore implements Store {
  private readonly index: AttachmentIndex;
  private lockFd: number | undefined;

  private constructor(readonly dir: string) {
    this.index = new AttachmentIndex(dir);
    this.lockFd = openSync(join(dir, LOCK_FILE), "a", 0o600);
  }

  /** Opens (creating it, mode 0755) the store directory of `network` under `dataDir`. */
  static open(dataDir: string, network: string): DiskStore {
    const dir = join(dataDir, network);
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    return new DiskStore(dir);
  }

  async lock(): Promise<void> {
    await lockExclusive(this.fd());
  }

  async unlock(): Promise<void> {
    unlockFd(this.fd());
  }

  async close(): Promise<void> {
    if (this.lockFd !== undefined) closeSync(this.lockFd);
    this.lockFd = undefined;
  }

  async reserve(id: string, ifname: string, ip: IP, rangeID: string): Promise<boolean> {
    const wasFresh = this.index.isFresh(this.dir);
    const path = join(this.dir, formatIP(ip));
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (err) {
      if (errorCode(err) === "EEXIST") return false;
      throw err;
    }
    try {
      writeSync(fd, formatHolder(id, ifname));
      closeSync(fd);
    } catch (err) {
      // A reservation whose content could not be written is removed again (§8.3).
      unlinkQuietly(path);
      throw err;
    }
    writeFileSync(join(this.dir, LAST_IP_PREFIX + rangeID), formatIP(ip), { mode: 0o600 });
    this.index.write(id, ifname, [...this.verified(id, ifname, this.index.read(id, ifname)), ip]);
    if (wasFresh) this.index.markFresh(this.dir);
    return true;
  }

  async lastReservedIP(rangeID: string): Promise<IP | undefined> {
    try {
      return parseIP(readFileSync(join(this.dir, LAST_IP_PREFIX + rangeID), "utf8"));
    } catch {
      return undefined;
    }
  }

  async releaseIP(ip: IP, id: string, ifname: string): Promise<void> {
    const wasFresh = this.index.isFresh(this.dir);
    const holder = this.holderOf(formatIP(ip));
    if (holder !== undefined && holdsExactly(holder, id, ifname)) unlinkQuietly(join(this.dir, formatIP(ip)));
    this.index.write(id, ifname, this.verified(id, ifname, this.index.read(id, ifname)));
    if (wasFresh) this.index.markFresh(this.dir);
  }

  async releaseByID(id: string, ifname: string): Promise<void> {
    this.releaseDamaged(id, ifname);
    if (this.index.isFresh(this.dir)) {
      // Nothing but us changed the store since the index was complete, so it lists every
      // reservation of (id, ifname) and there are no legacy ones: release those and drop
      // their entry, instead of reading every reservation and rewriting every entry.
      for (const ip of this.verified(id, ifname, this.index.read(id, ifname)))
        unlinkQuietly(join(this.dir, formatIP(ip)));
      this.index.write(id, ifname, []);
      this.index.markFresh(this.dir);
      return;
    }
    // A full scan: reservations the reference made for this attachment are not indexed.
    const all = this.scan();
    const exact = all.filter((r) => holdsExactly(r.holder, id, ifname));
    const doomed = exact.length > 0 ? exact : all.filter((r) => holdsLegacy(r.holder, id));
    for (const r of doomed) unlinkQuietly(join(this.dir, formatIP(r.ip)));
    const left = all.filter((r) => !doomed.includes(r));
    this.rebuildIndex(byHolder(left), !left.some((r) => r.holder.ifname === undefined));
  }

  /**
   * The addresses (id, ifname) holds, as upstream's `GetByID` (legacy ID-only files
   * included). Reads only the index while nothing but us changed the store; otherwise
   * every reservation file once, rebuilding the index.
   */
  async getByID(id: string, ifname: string): Promise<IP[]> {
    if (this.index.isFresh(this.dir)) return this.verified(id, ifname, this.index.read(id, ifname));
    const all = this.scan();
    this.rebuildIndex(byHolder(all), !all.some((r) => r.holder.ifname === undefined));
    return all.filter((r) => holdsExactly(r.holder, id, ifname) || holdsLegacy(r.holder, id)).map((r) => r.ip);
  }

  async findByID(id: string, ifname: string): Promise<boolean> {
    if ((await this.getByID(id, ifname)).length > 0) return true;
    const all = this.scan();
    return all.some((r) => holdsExactly(r.holder, id, ifname)) || all.some((r) => holdsLegacy(r.holder, id));
  }

  async reservedIPs(): Promise<IP[]> {
    return this.names().flatMap(({ ip }) => [ip]);
  }

  async gc(valid: readonly Attachment[]): Promise<GcReport> {
    const isValid = holderValidator(valid);
    const released: Reservation[] = [];
    const errors: string[] = [];
    const kept = new Map<string, { holder: Holder; ips: IP[] }>();
    let legacyKept = false;
    const owners = this.damagedOwners(valid);
    for (const r of this.scan()) {
      const owner = owners.get(formatIP(r.ip));
      if (!isValid(r.holder) && owner !== undefined) {
        // A valid attachment's reservation whose content was damaged: rewrite, never release.
        writeFileSync(join(this.dir, formatIP(r.ip)), formatHolder(owner.containerID, owner.ifname), { mode: 0o600 });
        const key = formatHolder(owner.containerID, owner.ifname);
        const entry = kept.get(key) ?? { holder: { id: owner.containerID.trim(), ifname: owner.ifname }, ips: [] };
        entry.ips.push(r.ip);
        kept.set(key, entry);
        continue;
      }
      if (isValid(r.holder)) {
        if (r.holder.ifname === undefined) {
          legacyKept = true;
          continue;
        }
        const key = formatHolder(r.holder.id, r.holder.ifname);
        const entry = kept.get(key) ?? { holder: r.holder, ips: [] };
        entry.ips.push(r.ip);
        kept.set(key, entry);
        continue;
      }
      try {
        unlinkSync(join(this.dir, formatIP(r.ip)));
        released.push(r);
      } catch (err) {
        errors.push(`failed to release ${formatIP(r.ip)}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.rebuildIndex([...kept.values()], !legacyKept);
    return { released, errors };
  }

  /**
   * Releases the reservations our index lists for (id, ifname) whose file is a damaged copy
   * of its holder (empty, garbage, truncated): the index names the owner the content lost,
   * so DEL can still free them (issue 16 item 2). A sound file of another holder is never touched.
   */
  private releaseDamaged(id: string, ifname: string): void {
    for (const ip of this.index.read(id, ifname)) {
      const path = join(this.dir, formatIP(ip));
      let content: string;
      try {
        content = readFileSync(path, "utf8");
      } catch {
        continue; // already released
      }
      if (isDamagedCopyOf(content, id, ifname)) unlinkQuietly(path);
    }
  }

  /**
   * The reservations our index lists for a valid attachment whose file is a damaged copy of
   * that attachment's holder (empty, garbage, truncated), by IP: GC keeps and rewrites them
   * (issue 16 item 2), since their owner is known to be alive.
   */
  private damagedOwners(valid: readonly Attachment[]): Map<string, Attachment> {
    const out = new Map<string, Attachment>();
    for (const v of valid) {
      for (const ip of this.index.read(v.containerID, v.ifname)) {
        let content: string;
        try {
          content = readFileSync(join(this.dir, formatIP(ip)), "utf8");
        } catch {
          continue;
        }
        if (isDamagedCopyOf(content, v.containerID, v.ifname)) out.set(formatIP(ip), v);
      }
    }
    return out;
  }

  /** Files named by an IP's text form: the reservations (lock, bookkeeping and our index never parse). */
  private names(): { name: string; ip: IP }[] {
    return readdirSync(this.dir).flatMap((name) => {
      const ip = parseIP(name);
      return ip !== undefined && formatIP(ip) === name ? [{ name, ip }] : [];
    });
  }

  /** Every reservation with its holder: reads every reservation file. */
  private scan(): Reservation[] {
    return this.names().flatMap(({ name, ip }) => {
      const holder = this.holderOf(name);
      return holder === undefined ? [] : [{ ip, holder }];
    });
  }

  private holderOf(name: string): Holder | undefined {
    try {
      return parseHolder(readFileSync(join(this.dir, name), "utf8"));
    } catch {
      return undefined;
    }
  }

  /** The listed addresses whose reservation file (id, ifname) really holds. */
  private verified(id: string, ifname: string, ips: readonly IP[]): IP[] {
    return ips.filter((ip, i) => {
      if (ips.findIndex((o) => ipEqual(o, ip)) !== i) return false;
      const holder = this.holderOf(formatIP(ip));
      return holder !== undefined && holdsExactly(holder, id, ifname);
    });
  }

  /** Rewrites the whole index from `entries`; marks it fresh when it is complete. */
  private rebuildIndex(entries: readonly { holder: Holder; ips: IP[] }[], complete: boolean): void {
    this.index.markStale();
    const wanted = new Set<string>();
    for (const { holder, ips } of entries) {
      if (holder.ifname === undefined) continue; // legacy files are found by scanning
      wanted.add(this.index.pathOf(holder.id, holder.ifname));
      this.index.write(holder.id, holder.ifname, ips);
    }
    const names = existsSync(this.index.dir) ? readdirSync(this.index.dir) : [];
    for (const name of names) {
      const path = join(this.index.dir, name);
      if (!wanted.has(path) && !AttachmentIndex.isBookkeeping(name)) unlinkQuietly(path);
    }
    if (wanted.size === 0) this.index.removeIfEmpty();
    if (complete) this.index.markFresh(this.dir);
  }

  private fd(): number {
    if (this.lockFd === undefined) throw new Error(`store ${this.dir} is closed`);
    return this.lockFd;
  }
}

/** Opens the disk store of `network` under `dataDir` (creating the directory). */
export function openDiskStore(dataDir: string, network: string): DiskStore {
  return DiskStore.open(dataDir, network);
}

/** Reservations grouped by their exact holder (legacy ID-only holders included as they are). */
function byHolder(reservations: readonly Reservation[]): { holder: Holder; ips: IP[] }[] {
  const groups = new Map<string, { holder: Holder; ips: IP[] }>();
  for (const r of reservations) {
    const key = formatHolder(r.holder.id, r.holder.ifname ?? "");
    const entry = groups.get(key) ?? { holder: r.holder, ips: [] };
    entry.ips.push(r.ip);
    groups.set(key, entry);
  }
  return [...groups.values()];
}

function errorCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone: releasing is idempotent (DEL-3)
  }
}
