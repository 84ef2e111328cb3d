/**
 * The round-robin walk over a range set (`allocator.RangeIter`): it starts just after
 * the last reserved IP when that lies in the set, otherwise at the first range's start;
 * it wraps from each range's end to the next range's start, skips gateways, and stops
 * when it comes back to where it started. A crash-looping container therefore does not
 * get the same address again until the whole set has been used.
 */
import { type IP, ipEqual, nextIP } from "@tscni/spec/ipnet";
import type { Range } from "./range.ts";
import { type RangeSet, rangeFor } from "./range-set.ts";

/** One candidate: an address and the range it came from. */
export interface Candidate {
  readonly ip: IP;
  readonly range: Range;
}

/** Iterates the candidates of a set; `next()` returns undefined once the set is exhausted. */
export class RangeIter {
  private rangeIdx = 0;
  private cur: IP | undefined;
  private startIP: IP | undefined;

  constructor(
    private readonly set: RangeSet,
    lastReserved?: IP,
  ) {
    const from = lastReserved === undefined ? undefined : rangeFor(set, lastReserved);
    if (from !== undefined && lastReserved !== undefined) {
      // Every next() advances first, so the first candidate is lastReserved + 1.
      this.rangeIdx = set.indexOf(from);
      this.cur = lastReserved;
    } else {
      this.startIP = set[0]?.rangeStart;
    }
  }

  /** The next candidate, or undefined when the walk is back where it started. */
  next(): Candidate | undefined {
    for (;;) {
      const step = this.advance();
      if (step === "done") return undefined;
      if (!ipEqual(step.ip, step.range.gateway)) return step;
    }
  }

  private advance(): Candidate | "done" {
    let r = this.set[this.rangeIdx] as Range;
    if (this.cur === undefined) {
      // First step without a last reserved IP: rangeStart itself is a candidate.
      this.cur = r.rangeStart;
      this.startIP = this.cur;
      return { ip: this.cur, range: r };
    }
    if (ipEqual(this.cur, r.rangeEnd)) {
      this.rangeIdx = (this.rangeIdx + 1) % this.set.length;
      r = this.set[this.rangeIdx] as Range;
      this.cur = r.rangeStart;
    } else {
      this.cur = nextIP(this.cur) ?? r.rangeStart;
    }
    if (this.startIP === undefined) this.startIP = this.cur;
    else if (ipEqual(this.cur, this.startIP)) return "done";
    return { ip: this.cur, range: r };
  }
}
