/**
 * The two host-local verbs that upstream lacks (cni.dev GC and STATUS, §1.5, §1.7): a
 * garbage collection of reservations held by attachments the runtime no longer knows,
 * and a readiness check that fails when some range set has no address left.
 */
import type { Attachment } from "@tscni/spec";
import type { IPAMConfig } from "./config.ts";
import { type Outcome, fail, ok } from "./outcome.ts";
import { rangeSetCapacity, rangeSetContains, rangeSetString } from "./range-set.ts";
import type { GcReport, Store } from "./store.ts";

/**
 * Releases, under the lock, every reservation not held by one of `valid` (GC-1); the
 * lock and `last_reserved_ip.*` are never touched, and a legacy ID-only reservation stays
 * while its container ID is valid with any ifname.
 */
export async function collectGarbage(store: Store, valid: readonly Attachment[]): Promise<GcReport> {
  await store.lock();
  try {
    return await store.gc(valid);
  } finally {
    await store.unlock();
  }
}

/**
 * Ready when every range set still has a free address: ADD needs one address from each
 * set, so one exhausted set is enough to make ADD fail (ST-1).
 */
export async function checkCapacity(conf: IPAMConfig, store: Store): Promise<Outcome<void>> {
  const reserved = await store.reservedIPs();
  for (const set of conf.ranges) {
    const used = BigInt(reserved.filter((ip) => rangeSetContains(set, ip)).length);
    if (used >= rangeSetCapacity(set)) return fail(`no IP addresses available in range set: ${rangeSetString(set)}`);
  }
  return ok(undefined);
}
