/**
 * The token bucket arithmetic of the reference (ifb_creator.go: createTBF, buffer, limit,
 * time2Tick), reproduced with Go's float64 steps and its float-to-uint32 conversions, so the
 * qdisc we install, and the one CHECK expects, carry exactly the reference's numbers.
 */
import { TICKS_PER_USEC, type TbfParams } from "@tscni/kernel";

/** ifb_creator.go's latencyInMillis: the queue holds 25 ms of traffic beyond the burst. */
export const LATENCY_MS = 25;
const TIME_UNITS_PER_SEC = 1_000_000;

/**
 * Go's `uint32(f)` on amd64: the float truncated to an int64 (0x8000000000000000 when it
 * does not fit), then its low 32 bits.
 */
export function goUint32(f: number): number {
  if (!Number.isFinite(f) || f >= 2 ** 63 || f < -(2 ** 63)) return 0;
  return Number(BigInt.asUintN(32, BigInt(Math.trunc(f))));
}

/**
 * The tbf parameters for a rate and burst in bits: rate and burst in bytes (integer
 * division), buffer = time2Tick(burst/rate in µs), limit = rate × 25 ms + burst.
 */
export function tbfParams(rateInBits: number, burstInBits: number): TbfParams {
  const rate = Math.floor(rateInBits / 8);
  const burst = goUint32(Math.floor(burstInBits / 8));
  const time = goUint32((burst * TIME_UNITS_PER_SEC) / rate);
  const buffer = goUint32(time * TICKS_PER_USEC);
  const latency = TIME_UNITS_PER_SEC * (LATENCY_MS / 1000);
  const limit = (goUint32((rate * latency) / TIME_UNITS_PER_SEC) + burst) >>> 0;
  return { rate, limit, buffer };
}
