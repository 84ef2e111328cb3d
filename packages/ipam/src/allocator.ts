/**
 * The allocator of one range set over a Store (`allocator.IPAllocator`): a requested
 * address, or the next free one in round-robin order.
 */
import { type IP, formatIP, ipEqual } from "@tscni/spec/ipnet";
import { type Outcome, fail, ok } from "./outcome.ts";
import { RangeIter } from "./range-iter.ts";
import { type RangeSet, rangeFor, rangeSetContains, rangeSetString } from "./range-set.ts";
import type { Store } from "./store.ts";

/** An allocated address: the IP, its subnet's prefix length and the subnet's gateway. */
export interface Allocation {
  readonly ip: IP;
  readonly prefix: number;
  readonly gateway: IP;
}

/** `<ip>/<prefix>`, the result's `address` (R-1: host bits kept). */
export function allocationAddress(a: Allocation): string {
  return `${formatIP(a.ip)}/${a.prefix}`;
}

/** Allocates from one range set; `rangeID` names its `last_reserved_ip.<rangeID>` file. */
export class IPAllocator {
  constructor(
    readonly rangeSet: RangeSet,
    readonly store: Store,
    readonly rangeID: string,
  ) {}

  /**
   * Reserves `requested`, or the next free address after the last reserved one, for
   * (id, ifname), holding the store's lock throughout (§8.3 ADD step 3).
   */
  async get(id: string, ifname: string, requested?: IP): Promise<Outcome<Allocation>> {
    await this.store.lock();
    try {
      return requested === undefined ? await this.next(id, ifname) : await this.take(id, ifname, requested);
    } finally {
      await this.store.unlock();
    }
  }

  /** Releases everything (id, ifname) holds in the store, under the lock. */
  async release(id: string, ifname: string): Promise<void> {
    await this.store.lock();
    try {
      await this.store.releaseByID(id, ifname);
    } finally {
      await this.store.unlock();
    }
  }

  private async take(id: string, ifname: string, ip: IP): Promise<Outcome<Allocation>> {
    const r = rangeFor(this.rangeSet, ip);
    if (r === undefined) return fail(`${formatIP(ip)} not in range set ${rangeSetString(this.rangeSet)}`);
    if (ipEqual(ip, r.gateway)) return fail(`requested ip ${formatIP(ip)} is subnet's gateway`);
    if (!(await this.store.reserve(id, ifname, ip, this.rangeID))) {
      return fail(
        `requested IP address ${formatIP(ip)} is not available in range set ${rangeSetString(this.rangeSet)}`,
      );
    }
    return ok({ ip, prefix: r.subnet.prefix, gateway: r.gateway });
  }

  private async next(id: string, ifname: string): Promise<Outcome<Allocation>> {
    // One attachment holds at most one address per range set (ADD-5).
    for (const held of await this.store.getByID(id, ifname)) {
      if (rangeSetContains(this.rangeSet, held)) {
        return fail(`${formatIP(held)} has been allocated to ${id}, duplicate allocation is not allowed`);
      }
    }
    // A last reserved IP outside the set (the ranges changed) only costs round-robin once.
    const iter = new RangeIter(this.rangeSet, await this.store.lastReservedIP(this.rangeID));
    for (let c = iter.next(); c !== undefined; c = iter.next()) {
      if (await this.store.reserve(id, ifname, c.ip, this.rangeID)) {
        return ok({ ip: c.ip, prefix: c.range.subnet.prefix, gateway: c.range.gateway });
      }
    }
    return fail(`no IP addresses available in range set: ${rangeSetString(this.rangeSet)}`);
  }
}
