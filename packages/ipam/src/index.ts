export { allocate, release } from "./allocate.ts";
export { IPAllocator, allocationAddress } from "./allocator.ts";
export type { Allocation } from "./allocator.ts";
export { DEFAULT_DATA_DIR, loadIPAMConfig, loadStoreLocation } from "./config.ts";
export type { IPAMConfig, StoreLocation } from "./config.ts";
export { parseIPMaybePrefix } from "./ip-or-cidr.ts";
export { checkCapacity, collectGarbage } from "./maintenance.ts";
export { fail, ok } from "./outcome.ts";
export type { Outcome } from "./outcome.ts";
export { canonicalizeRange, rangeContains, rangeString, rangesOverlap } from "./range.ts";
export type { Range, RangeInput } from "./range.ts";
export { RangeIter } from "./range-iter.ts";
export type { Candidate } from "./range-iter.ts";
export {
  canonicalizeRangeSet,
  rangeFor,
  rangeSetCapacity,
  rangeSetContains,
  rangeSetFamily,
  rangeSetString,
  rangeSetsOverlap,
} from "./range-set.ts";
export type { RangeSet } from "./range-set.ts";
export { parseResolvConf } from "./resolv-conf.ts";
export { NetSchema, parseNet } from "./schema.ts";
export type { NetInput } from "./schema.ts";
export { LINE_BREAK, formatHolder, holderValidator, holdsExactly, holdsLegacy, parseHolder } from "./store.ts";
export type { GcReport, Holder, Reservation, Store } from "./store.ts";
export { MemoryStore } from "./store-memory.ts";
