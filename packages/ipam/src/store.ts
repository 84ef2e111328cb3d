/**
 * The port between the allocator and where reservations live (`backend/store.go`), plus
 * the holder format every store shares: `<trimmed containerID>\r\n<ifname>`, or a bare
 * container ID in files written before ifnames were recorded (legacy).
 */
import type { Attachment } from "@tscni/spec";
import type { IP } from "@tscni/spec/ipnet";

/** Who holds a reservation; `ifname` is undefined for a legacy (ID-only) reservation. */
export interface Holder {
  readonly id: string;
  readonly ifname?: string;
}

/** One reservation: an address and its holder. */
export interface Reservation {
  readonly ip: IP;
  readonly holder: Holder;
}

/** What a garbage collection did: the reservations released and the errors met on the way (GC-3). */
export interface GcReport {
  readonly released: readonly Reservation[];
  readonly errors: readonly string[];
}

/**
 * Where reservations live. `lock`/`unlock` bracket every allocation in a range set and
 * every release, across processes for the disk store (LC-2).
 */
export interface Store {
  lock(): Promise<void>;
  unlock(): Promise<void>;
  close(): Promise<void>;
  /** Reserves `ip` for the holder and records it as the set's last reserved IP; false when taken. */
  reserve(id: string, ifname: string, ip: IP, rangeID: string): Promise<boolean>;
  /** The last IP reserved in range set `rangeID`, if recorded and readable. */
  lastReservedIP(rangeID: string): Promise<IP | undefined>;
  /** Releases `ip` if (id, ifname) holds it: the undo of one `reserve`. */
  releaseIP(ip: IP, id: string, ifname: string): Promise<void>;
  /** Releases everything (id, ifname) holds; failing that, what a legacy file for `id` holds. */
  releaseByID(id: string, ifname: string): Promise<void>;
  /** The addresses (id, ifname) holds, legacy reservations of `id` included where the store can see them cheaply. */
  getByID(id: string, ifname: string): Promise<IP[]>;
  /** True when (id, ifname), or failing that a legacy reservation of `id`, holds an address (CHECK). */
  findByID(id: string, ifname: string): Promise<boolean>;
  /** Every reserved address (names only: cheap). */
  reservedIPs(): Promise<IP[]>;
  /** Releases every reservation whose holder is not among `valid` (GC-1); bookkeeping is never touched. */
  gc(valid: readonly Attachment[]): Promise<GcReport>;
}

/** The line break between container ID and ifname, as upstream writes it. */
export const LINE_BREAK = "\r\n";

/** The content of a reservation file. */
export function formatHolder(id: string, ifname: string): string {
  return `${id.trim()}${LINE_BREAK}${ifname}`;
}

/** Reads a reservation file's content; a content without the line break is a legacy ID. */
export function parseHolder(content: string): Holder {
  const text = content.trim();
  const cut = text.indexOf(LINE_BREAK);
  if (cut < 0) return { id: text };
  return { id: text.slice(0, cut), ifname: text.slice(cut + LINE_BREAK.length) };
}

/** True when the holder is (id, ifname) exactly. */
export function holdsExactly(h: Holder, id: string, ifname: string): boolean {
  return h.ifname !== undefined && h.id === id.trim() && h.ifname === ifname;
}

/** True when the holder is a legacy reservation of `id`. */
export function holdsLegacy(h: Holder, id: string): boolean {
  return h.ifname === undefined && h.id === id.trim();
}

/**
 * A predicate telling whether a holder is still valid: an exact attachment of `valid`, or
 * a legacy reservation whose container ID appears with any ifname (it cannot tell which).
 */
export function holderValidator(valid: readonly Attachment[]): (h: Holder) => boolean {
  const exact = new Set(valid.map((a) => formatHolder(a.containerID, a.ifname)));
  const ids = new Set(valid.map((a) => a.containerID.trim()));
  return (h) => h.id !== "" && (h.ifname === undefined ? ids.has(h.id) : exact.has(formatHolder(h.id, h.ifname)));
}
