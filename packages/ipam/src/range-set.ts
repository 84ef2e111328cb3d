/**
 * A range set (`allocator/range_set.go`): a pool of ranges of one family from which one
 * address is allocated.
 */
import type { IP } from "@tscni/spec/ipnet";
import { type Outcome, fail, ok } from "./outcome.ts";
import { type Range, type RangeInput, canonicalizeRange, rangeContains, rangeString, rangesOverlap } from "./range.ts";

/** A canonical, non-empty range set. */
export type RangeSet = readonly Range[];

/**
 * Canonicalises every range and checks the set (`RangeSet.Canonicalize`): not empty, one
 * family, no two ranges overlapping.
 *
 * @example canonicalizeRangeSet([]) // fails: "empty range set"
 */
export function canonicalizeRangeSet(inputs: readonly RangeInput[]): Outcome<RangeSet> {
  if (inputs.length === 0) return fail("empty range set");
  const out: Range[] = [];
  for (const input of inputs) {
    const r = canonicalizeRange(input);
    if (!r.ok) return r;
    if (out.length > 0 && out[0]?.rangeStart.family !== r.value.rangeStart.family)
      return fail("mixed address families");
    out.push(r.value);
  }
  for (const [i, a] of out.entries()) {
    for (const b of out.slice(i + 1)) {
      if (rangesOverlap(a, b)) return fail(`subnets ${rangeString(a)} and ${rangeString(b)} overlap`);
    }
  }
  return ok(out);
}

/** The range of the set holding `ip`, if any (`RangeSet.RangeFor`). */
export function rangeFor(set: RangeSet, ip: IP): Range | undefined {
  return set.find((r) => rangeContains(r, ip));
}

/** True when some range of the set holds `ip`. */
export function rangeSetContains(set: RangeSet, ip: IP): boolean {
  return rangeFor(set, ip) !== undefined;
}

/** True when any range of one set overlaps any range of the other. */
export function rangeSetsOverlap(a: RangeSet, b: RangeSet): boolean {
  return a.some((r) => b.some((s) => rangesOverlap(r, s)));
}

/** The family of a set (that of its first range). */
export function rangeSetFamily(set: RangeSet): 4 | 6 {
  return set[0]?.rangeStart.family ?? 4;
}

/** `start-end,start-end`, as upstream prints a set in its messages. */
export function rangeSetString(set: RangeSet): string {
  return set.map(rangeString).join(",");
}

/** How many addresses the set can hand out: each range's size minus its gateway. */
export function rangeSetCapacity(set: RangeSet): bigint {
  let total = 0n;
  for (const r of set) {
    total += r.rangeEnd.value - r.rangeStart.value + 1n;
    if (rangeContains(r, r.gateway)) total -= 1n;
  }
  return total;
}
