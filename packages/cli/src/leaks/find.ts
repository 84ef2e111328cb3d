/**
 * The leak rules of `cni leaks`, pure over what the result cache and host-local's data
 * dirs hold for one network: which cached attachments lost their pod, which reservations
 * lost their attachment, and which cached addresses lost their reservation.
 */

/** One cached attachment of a network, with the addresses its cached result lists. */
export interface CachedAttachment {
  readonly containerID: string;
  readonly ifName: string;
  readonly netns: string;
  /** Canonical IP texts (no prefix length) of the cached result's `ips`. */
  readonly addresses: readonly string[];
}

/** One host-local reservation file: its address and holder (`ifname` undefined when legacy). */
export interface HostLocalReservation {
  readonly ip: string;
  readonly id: string;
  readonly ifname?: string;
  /** The store directory it lives in (`<dataDir>/<network>`). */
  readonly dir: string;
  /** True when the file's content is no holder any store writes (empty, garbage): issue 16 item 2. */
  readonly damaged?: boolean;
  /** The content, escaped for a terminal (never printed raw). */
  readonly content?: string;
}

/** A cache file of the network that cannot be decoded: its attachment is unknown (issue 16 item 1). */
export interface UnknownAttachment {
  /** The file's path. */
  readonly file: string;
  readonly reason: string;
  /** Every (containerID, ifName) its name `<net>-<cid>-<if>` may stand for (CACHE-8). */
  readonly candidates: readonly { readonly containerID: string; readonly ifName: string }[];
}

/** What the report knows about one network. */
export interface NetworkState {
  readonly name: string;
  /** True when a plugin of the list, or its IPAM, is host-local. */
  readonly usesHostLocal: boolean;
  readonly attachments: readonly CachedAttachment[];
  readonly reservations: readonly HostLocalReservation[];
  readonly unknown: readonly UnknownAttachment[];
}

/** The kinds of finding; "unknown attachment" and "damaged reservation" are reported, never released blindly. */
export type LeakKind =
  | "stale attachment"
  | "leaked address"
  | "missing reservation"
  | "unknown attachment"
  | "damaged reservation";

/** One finding of the report. */
export interface Leak {
  readonly network: string;
  readonly kind: LeakKind;
  readonly containerID: string;
  readonly ifName: string;
  /** The netns path (stale attachment) or the address (the other kinds). */
  readonly where: string;
  readonly why: string;
}

function holds(r: HostLocalReservation, a: CachedAttachment): boolean {
  // A legacy (ID-only) file cannot tell ifnames apart: any ifname of the ID holds it, as in host-local's GC.
  return r.id === a.containerID.trim() && (r.ifname === undefined || r.ifname === a.ifName);
}

function mayHold(u: UnknownAttachment, r: HostLocalReservation): boolean {
  return u.candidates.some((c) => c.containerID.trim() === r.id && (r.ifname === undefined || c.ifName === r.ifname));
}

/**
 * Every finding of one network: cached attachments whose netns is gone, cache records that
 * cannot be read (their attachment is unknown and keeps its addresses), damaged
 * reservation files, host-local reservations no cached attachment holds, and cached
 * host-local addresses without a reservation held by their attachment. `netnsExists` is
 * the only view of the kernel.
 */
export function findLeaks(state: NetworkState, netnsExists: (path: string) => boolean): Leak[] {
  const out: Leak[] = [];
  const base = { network: state.name };
  const live = (a: CachedAttachment): boolean => a.netns !== "" && netnsExists(a.netns);
  for (const a of state.attachments) {
    if (!live(a)) {
      const why = a.netns === "" ? "the cache records no netns" : "its netns no longer exists; DEL never ran";
      out.push({
        ...base,
        kind: "stale attachment",
        containerID: a.containerID,
        ifName: a.ifName,
        where: a.netns === "" ? "-" : a.netns,
        why,
      });
    }
  }
  for (const u of state.unknown) {
    const held = state.reservations.filter((r) => !r.damaged && mayHold(u, r)).map((r) => r.ip);
    const keeps = held.length > 0 ? `; keeps ${held.join(", ")} reserved` : "";
    out.push({
      ...base,
      kind: "unknown attachment",
      containerID: "?",
      ifName: "?",
      where: u.file,
      why: `cache record ${u.reason}: its owner is unknown, never released${keeps}`,
    });
  }
  if (!state.usesHostLocal) return out;
  for (const r of state.reservations) {
    if (r.damaged === true) {
      const owner = state.attachments.find((a) => live(a) && a.addresses.includes(r.ip));
      const fix =
        owner === undefined
          ? "no live attachment lists it: --repair releases it"
          : `live ${owner.containerID} ${owner.ifName} lists it: --repair rewrites it`;
      out.push({
        ...base,
        kind: "damaged reservation",
        containerID: "?",
        ifName: "?",
        where: r.ip,
        why: `content ${JSON.stringify(r.content ?? "")} in ${r.dir} is no holder; ${fix}`,
      });
      continue;
    }
    if (state.attachments.some((a) => holds(r, a)) || state.unknown.some((u) => mayHold(u, r))) continue;
    const why = `reserved in ${r.dir} but no cached attachment holds it`;
    out.push({ ...base, kind: "leaked address", containerID: r.id, ifName: r.ifname ?? "-", where: r.ip, why });
  }
  for (const a of state.attachments) {
    for (const ip of a.addresses) {
      const reserved = state.reservations.filter((r) => r.ip === ip);
      if (reserved.some((r) => holds(r, a) || r.damaged === true)) continue;
      const other = reserved[0];
      const why =
        other === undefined
          ? "the cached result lists it but no reservation file exists"
          : `reserved by ${other.id} ${other.ifname ?? "(legacy)"} instead`;
      out.push({ ...base, kind: "missing reservation", containerID: a.containerID, ifName: a.ifName, where: ip, why });
    }
  }
  return out;
}
