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
}

/** What the report knows about one network. */
export interface NetworkState {
  readonly name: string;
  /** True when a plugin of the list, or its IPAM, is host-local. */
  readonly usesHostLocal: boolean;
  readonly attachments: readonly CachedAttachment[];
  readonly reservations: readonly HostLocalReservation[];
}

/** The three kinds of leak. */
export type LeakKind = "stale attachment" | "leaked address" | "missing reservation";

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

/**
 * Every leak of one network: cached attachments whose netns is gone, host-local
 * reservations no cached attachment holds, and cached host-local addresses without a
 * reservation held by their attachment. `netnsExists` is the only view of the kernel.
 */
export function findLeaks(state: NetworkState, netnsExists: (path: string) => boolean): Leak[] {
  const out: Leak[] = [];
  const base = { network: state.name };
  for (const a of state.attachments) {
    if (a.netns === "" || !netnsExists(a.netns)) {
      const why = a.netns === "" ? "the cache records no netns" : "its netns no longer exists; DEL never ran";
      out.push({ ...base, kind: "stale attachment", containerID: a.containerID, ifName: a.ifName, where: a.netns === "" ? "-" : a.netns, why });
    }
  }
  if (!state.usesHostLocal) return out;
  for (const r of state.reservations) {
    if (state.attachments.some((a) => holds(r, a))) continue;
    const why = `reserved in ${r.dir} but no cached attachment holds it`;
    out.push({ ...base, kind: "leaked address", containerID: r.id, ifName: r.ifname ?? "-", where: r.ip, why });
  }
  for (const a of state.attachments) {
    for (const ip of a.addresses) {
      const reserved = state.reservations.filter((r) => r.ip === ip);
      if (reserved.some((r) => holds(r, a))) continue;
      const other = reserved[0];
      const why =
        other === undefined ? "the cached result lists it but no reservation file exists" : `reserved by ${other.id} ${other.ifname ?? "(legacy)"} instead`;
      out.push({ ...base, kind: "missing reservation", containerID: a.containerID, ifName: a.ifName, where: ip, why });
    }
  }
  return out;
}
