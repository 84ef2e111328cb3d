/**
 * The largest packet a token bucket can ever send, as Linux's `tbf_change` (sch_tbf.c)
 * derives it when no `TCA_TBF_BURST` is given (the netlink driver and the reference send
 * only `TCA_TBF_PARMS`): the buffer in ticks of 64 ns, capped at `~0U` nanoseconds, times
 * the rate in bytes per second, over 10^9 (`psched_ns_t2l`, u64 arithmetic, no overhead),
 * capped at `~0U`. The kernel refuses a tbf whose `max_size` is 0 with EINVAL, and only
 * warns when it is below the device's MTU (checked on Linux 6.18: rate 1000 B/s accepts a
 * buffer of 15625 ticks, 1 byte, and refuses 15624).
 */
import type { TbfParams } from "../ops-tc.ts";

const U32_MAX = 0xffff_ffffn;
const U64 = 1n << 64n;
const NSEC_PER_SEC = 1_000_000_000n;
/** PSCHED_SHIFT: a scheduler tick is 2^6 ns. */
const NS_PER_TICK = 64n;

/** The bytes a tbf with these parameters can send at once (0: Linux refuses it). */
export function tbfMaxSize(tbf: TbfParams): number {
  const bufferNs = BigInt(tbf.buffer) * NS_PER_TICK;
  const ns = bufferNs < U32_MAX ? bufferNs : U32_MAX;
  const len = ((ns * BigInt(tbf.rate)) % U64) / NSEC_PER_SEC;
  return Number(len < U32_MAX ? len : U32_MAX);
}
