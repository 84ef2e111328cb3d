/**
 * Retrying a DHCP exchange as the reference does (lease.go `backoffRetry`, RFC 2131 section 4.1:
 * exponential backoff from 4 s randomised by ±1 s): 4 fast retries 2 s ± 1 s apart, then
 * 4 s doubling up to `-resendmax`, all within `-resendtimeout`.
 */
import type { Clock } from "./lease.ts";

/** The reference's retry constants (lease.go). */
export const RESEND = {
  delay0Ms: 4000,
  fastDelayMs: 2000,
  fastMax: 4,
  jitterMs: 1000,
  defaultMaxMs: 62_000,
  defaultTimeoutMs: 208_000,
} as const;

/** The error when the retries ran out (daemon.go `errNoMoreTries`). */
export const NO_MORE_TRIES = "no more tries";

/** Retry settings: the longest pause and the whole budget. */
export interface Backoff {
  resendMaxMs: number;
  resendTimeoutMs: number;
  /** A number in [0, 1); Math.random in production. */
  random?: () => number;
}

/** Runs `f` until it succeeds, the budget is spent, `stop` fires, or `fatal` says an error must not be retried. */
export async function backoffRetry<T>(
  clock: Clock,
  b: Backoff,
  stop: AbortSignal,
  f: () => Promise<T>,
  log: (msg: string) => void,
): Promise<T> {
  const deadline = clock.now() + b.resendTimeoutMs;
  const random = b.random ?? Math.random;
  let delay: number = RESEND.delay0Ms;
  let fast: number = RESEND.fastMax;
  for (;;) {
    try {
      return await f();
    } catch (err) {
      log((err as Error).message);
    }
    const jitter = RESEND.jitterMs * (2 * random() - 1);
    let pause: number;
    if (fast === 0) pause = delay + jitter;
    else {
      pause = RESEND.fastDelayMs + jitter;
      fast--;
    }
    if (clock.now() + pause > deadline || stop.aborted) throw new Error(NO_MORE_TRIES);
    log(`retrying in ${(pause / 1000).toFixed(6)} seconds`);
    await clock.sleep(pause, stop);
    if (stop.aborted) throw new Error(NO_MORE_TRIES);
    if (delay < b.resendMaxMs && fast === 0) delay *= 2;
  }
}
