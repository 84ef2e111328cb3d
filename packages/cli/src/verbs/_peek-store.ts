/**
 * A read-only view of host-local's data dir for `cni plan`: the allocator runs against
 * it to learn the next address without reserving it. It reads the reference's layout
 * (`<dataDir>/<net>/<ip>` files and `last_reserved_ip.<i>`) and writes nothing, not even
 * the directory or the lock file the disk store would create.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { GcReport, Store } from "@tscni/ipam";
import { LAST_IP_PREFIX } from "@tscni/ipam/disk";
import { type IP, formatIP, parseIP } from "@tscni/spec/ipnet";

/** A Store whose reservations are the data dir's plus this instance's, in memory only. */
export class PeekStore implements Store {
  readonly #dir: string;
  readonly #taken = new Set<string>();

  constructor(dataDir: string, network: string) {
    this.#dir = join(dataDir, network);
    let names: string[] = [];
    try {
      names = readdirSync(this.#dir);
    } catch {
      // No data dir yet: nothing is reserved.
    }
    for (const name of names) {
      const ip = parseIP(name);
      if (ip !== undefined) this.#taken.add(formatIP(ip));
    }
  }

  async lock(): Promise<void> {}
  async unlock(): Promise<void> {}
  async close(): Promise<void> {}

  async reserve(_id: string, _ifname: string, ip: IP): Promise<boolean> {
    if (this.#taken.has(formatIP(ip))) return false;
    this.#taken.add(formatIP(ip));
    return true;
  }

  async lastReservedIP(rangeID: string): Promise<IP | undefined> {
    try {
      return parseIP(readFileSync(join(this.#dir, LAST_IP_PREFIX + rangeID), "utf8").trim());
    } catch {
      return undefined;
    }
  }

  async releaseIP(): Promise<void> {}
  async releaseByID(): Promise<void> {}
  async getByID(): Promise<IP[]> {
    return [];
  }
  async findByID(): Promise<boolean> {
    return false;
  }
  async reservedIPs(): Promise<IP[]> {
    return [];
  }
  async gc(): Promise<GcReport> {
    return { released: [], errors: [] };
  }
}
