/**
 * An in-memory Store (upstream's `backend/testing/fake_store.go`): the model the disk
 * store is checked against, and a store for in-process tests.
 */
import type { Attachment } from "@tscni/spec";
import { type IP, formatIP } from "@tscni/spec/ipnet";
import {
  type GcReport,
  type Holder,
  type Reservation,
  type Store,
  holderValidator,
  holdsExactly,
  holdsLegacy,
} from "./store.ts";

/** A Store held in maps; `lock` serialises callers within the process. */
export class MemoryStore implements Store {
  /** Reservations by address text. */
  readonly reservations = new Map<string, Reservation>();
  /** `last_reserved_ip.<rangeID>` by rangeID. */
  readonly lastReserved = new Map<string, IP>();
  private tail: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  /** Seeds a reservation as an older host-local would have written it (ID only). */
  seedLegacy(ip: IP, id: string): void {
    this.reservations.set(formatIP(ip), { ip, holder: { id: id.trim() } });
  }

  async lock(): Promise<void> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.release = release;
  }

  async unlock(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async close(): Promise<void> {}

  async reserve(id: string, ifname: string, ip: IP, rangeID: string): Promise<boolean> {
    if (this.reservations.has(formatIP(ip))) return false;
    this.reservations.set(formatIP(ip), { ip, holder: { id: id.trim(), ifname } });
    this.lastReserved.set(rangeID, ip);
    return true;
  }

  async lastReservedIP(rangeID: string): Promise<IP | undefined> {
    return this.lastReserved.get(rangeID);
  }

  async releaseIP(ip: IP, id: string, ifname: string): Promise<void> {
    const r = this.reservations.get(formatIP(ip));
    if (r !== undefined && holdsExactly(r.holder, id, ifname)) this.reservations.delete(formatIP(ip));
  }

  async releaseByID(id: string, ifname: string): Promise<void> {
    if (this.drop((h) => holdsExactly(h, id, ifname)) === 0) this.drop((h) => holdsLegacy(h, id));
  }

  async getByID(id: string, ifname: string): Promise<IP[]> {
    return [...this.reservations.values()]
      .filter((r) => holdsExactly(r.holder, id, ifname) || holdsLegacy(r.holder, id))
      .map((r) => r.ip);
  }

  async findByID(id: string, ifname: string): Promise<boolean> {
    const all = [...this.reservations.values()];
    return all.some((r) => holdsExactly(r.holder, id, ifname)) || all.some((r) => holdsLegacy(r.holder, id));
  }

  async reservedIPs(): Promise<IP[]> {
    return [...this.reservations.values()].map((r) => r.ip);
  }

  async gc(valid: readonly Attachment[]): Promise<GcReport> {
    const isValid = holderValidator(valid);
    const released = [...this.reservations.values()].filter((r) => !isValid(r.holder));
    for (const r of released) this.reservations.delete(formatIP(r.ip));
    return { released, errors: [] };
  }

  private drop(match: (h: Holder) => boolean): number {
    let n = 0;
    for (const [key, r] of this.reservations) {
      if (match(r.holder)) {
        this.reservations.delete(key);
        n++;
      }
    }
    return n;
  }
}
