/**
 * The fail-safe repair of one host-local store (issue 16 items 1 and 2), for `cni leaks
 * --repair` at every cniVersion: under the store's lock, as GC (GC-1, GC-8), it
 *
 * 1. rewrites a damaged reservation file (empty, garbage, truncated) whose owner is known
 *    for sure: a live attachment whose cached result lists the address, or an attachment
 *    of an unreadable cache record that our index says holds it;
 * 2. releases every reservation not held by a live attachment nor by a possible owner of
 *    an unreadable cache record (an unknown attachment is never released), nor by an
 *    attachment whose ADD or DEL is in flight (its attachment lock is held, GC-8).
 *
 * The file format stays the reference's (§8.3); the index is rebuilt by the store's GC.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Attachment } from "@tscni/spec";
import { formatIP, parseIP } from "@tscni/spec/ipnet";
import { isDamagedCopyOf, isSoundHolder } from "./damage.ts";
import { attachmentBusy } from "./attachment-lock.ts";
import { type GcReport, formatHolder, parseHolder } from "./store.ts";
import { openDiskStore } from "./store-disk.ts";
import { AttachmentIndex } from "./store-disk-index.ts";

/** An attachment whose pod is alive, with the canonical addresses its cached result lists. */
export interface LiveAttachment {
  readonly containerID: string;
  readonly ifName: string;
  readonly addresses: readonly string[];
}

/** What the repair may rely on. */
export interface RepairInput {
  readonly live: readonly LiveAttachment[];
  /** Every (containerID, ifname) an unreadable cache record of the network may stand for. */
  readonly unknown: readonly Attachment[];
  /**
   * Directories of attachment locks (attachment-lock.ts) to consult: a reservation whose
   * holder's lock is held belongs to an ADD or DEL in flight and is kept (GC-8).
   */
  readonly lockDirs?: readonly string[];
}

/** What the repair did. */
export interface RepairReport extends GcReport {
  /** Damaged files rewritten with their owner's holder: `<ip> -> <cid> <ifname>`. */
  readonly rewritten: readonly string[];
  /** Holders kept because an ADD or DEL of theirs was in flight: pass them as valid to any later GC. */
  readonly busy: readonly Attachment[];
}

function ownerOf(ip: string, content: string, input: RepairInput, index: AttachmentIndex): Attachment | undefined {
  const claims: Attachment[] = [];
  for (const a of input.live)
    if (a.addresses.includes(ip)) claims.push({ containerID: a.containerID, ifname: a.ifName });
  for (const u of input.unknown)
    if (index.read(u.containerID, u.ifname).some((x) => formatIP(x) === ip)) claims.push(u);
  const damagedOf = claims.filter((c) => isDamagedCopyOf(content, c.containerID, c.ifname));
  // Exactly one claimant, or we do not guess.
  return damagedOf.length === 1 ? damagedOf[0] : undefined;
}

function inFlight(network: string, containerID: string, ifName: string, lockDirs: readonly string[]): boolean {
  return lockDirs.some((d) => attachmentBusy(d, { network, containerID, ifName }));
}

/** Repairs `<dataDir>/<network>/` under its lock; a store that does not exist is left alone. */
export async function repairDiskStore(dataDir: string, network: string, input: RepairInput): Promise<RepairReport> {
  const dir = join(dataDir, network);
  if (!existsSync(dir)) return { released: [], errors: [], rewritten: [], busy: [] };
  const store = openDiskStore(dataDir, network);
  const index = new AttachmentIndex(dir);
  const rewritten: string[] = [];
  const busy: Attachment[] = [];
  try {
    await store.lock();
    try {
      for (const name of readdirSync(dir)) {
        const ip = parseIP(name);
        if (ip === undefined || formatIP(ip) !== name) continue;
        let content: string;
        try {
          content = readFileSync(join(dir, name), "utf8");
        } catch {
          continue;
        }
        const holder = parseHolder(content);
        if (
          isSoundHolder(content) &&
          holder.ifname !== undefined &&
          inFlight(network, holder.id, holder.ifname, input.lockDirs ?? [])
        ) {
          busy.push({ containerID: holder.id, ifname: holder.ifname });
          continue;
        }
        if (
          isSoundHolder(content) &&
          !input.live.some((a) => a.addresses.includes(name) && isDamagedCopyOf(content, a.containerID, a.ifName))
        )
          continue;
        const owner = ownerOf(name, content, input, index);
        if (owner === undefined) continue; // GC below releases it unless its holder is valid
        writeFileSync(join(dir, name), formatHolder(owner.containerID, owner.ifname), { mode: 0o600 });
        rewritten.push(`${name} -> ${owner.containerID} ${owner.ifname}`);
      }
      const valid: Attachment[] = [
        ...input.live.map((a) => ({ containerID: a.containerID, ifname: a.ifName })),
        ...input.unknown,
        ...busy,
      ];
      return { ...(await store.gc(valid)), rewritten, busy };
    } finally {
      await store.unlock();
    }
  } finally {
    await store.close();
  }
}
