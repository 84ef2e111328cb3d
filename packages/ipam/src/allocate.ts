/**
 * host-local's ADD and DEL over any Store (the allocation half of upstream `main.go`):
 * one address per range set, requested addresses honoured where they fit, everything
 * this call reserved undone when any part fails.
 */
import { type Allocation, IPAllocator } from "./allocator.ts";
import type { IPAMConfig } from "./config.ts";
import { type IP, formatIP } from "@tscni/spec/ipnet";
import { type Outcome, fail, ok } from "./outcome.ts";
import { rangeSetContains } from "./range-set.ts";
import type { Store } from "./store.ts";

/**
 * Allocates one address from each range set of `conf` for (id, ifname), in order. A
 * requested address that lies in a set is taken from that set; requested addresses that
 * fit no set fail the whole call (§8.3 ADD steps 3-4).
 *
 * @example await allocate(conf, store, "cid", "eth0") // ok([{ ip: 198.18.0.2, prefix: 24, gateway: 198.18.0.1 }])
 */
export async function allocate(
  conf: IPAMConfig,
  store: Store,
  id: string,
  ifname: string,
): Promise<Outcome<Allocation[]>> {
  const pending = new Map<string, IP>();
  for (const ip of conf.requestedIPs) pending.set(formatIP(ip), ip);
  const done: Allocation[] = [];
  for (const [idx, set] of conf.ranges.entries()) {
    const allocator = new IPAllocator(set, store, String(idx));
    const requested = [...pending.values()].find((ip) => rangeSetContains(set, ip));
    if (requested !== undefined) pending.delete(formatIP(requested));
    const got = await allocator.get(id, ifname, requested);
    if (!got.ok) {
      await undo(store, done, id, ifname);
      return fail(`failed to allocate for range ${idx}: ${got.error}`);
    }
    done.push(got.value);
  }
  if (pending.size > 0) {
    await undo(store, done, id, ifname);
    return fail(`failed to allocate all requested IPs: ${[...pending.values()].map(formatIP).join(" ")}`);
  }
  return ok(done);
}

/**
 * Releases what this call reserved, and only that. Upstream releases everything the
 * attachment holds, which also drops an older reservation that a duplicate ADD ran into.
 */
async function undo(store: Store, done: readonly Allocation[], id: string, ifname: string): Promise<void> {
  if (done.length === 0) return;
  await store.lock();
  try {
    for (const a of done) await store.releaseIP(a.ip, id, ifname);
  } finally {
    await store.unlock();
  }
}

/** Releases everything (id, ifname) holds (§8.3 DEL); releasing nothing is success (DEL-3). */
export async function release(store: Store, id: string, ifname: string): Promise<void> {
  await store.lock();
  try {
    await store.releaseByID(id, ifname);
  } finally {
    await store.unlock();
  }
}
