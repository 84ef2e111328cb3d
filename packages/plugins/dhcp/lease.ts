/**
 * One lease's life after the first ACK (RFC 2131 section 4.4.5, the reference's lease.go
 * `maintain`): BOUND until T1, RENEWING until T2, REBINDING until expiry, then the
 * interface goes down; a stop releases it. Time comes from a {@link Clock} so that the
 * state machine runs under a fake clock in tests.
 */
import type { DhcpMessage } from "./packet.ts";
import { Opt, optU32 } from "./packet.ts";

/** Milliseconds since the epoch, and a cancellable sleep. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or early when `wake` fires (a stop or a CHECK). */
  sleep(ms: number, wake: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, wake) =>
    new Promise((resolve) => {
      if (wake.aborted) return resolve();
      const t = setTimeout(done, Math.max(0, ms));
      function done(): void {
        clearTimeout(t);
        wake.removeEventListener("abort", done);
        resolve();
      }
      wake.addEventListener("abort", done);
    }),
};

/** When a lease must be renewed, rebound, and when it expires (ms since the epoch). */
export interface LeaseTimes {
  renewAt: number;
  rebindAt: number;
  expireAt: number;
}

/** The lease's default length when the ACK has no option 51 (lease.go `defaultLeaseTime`). */
export const DEFAULT_LEASE_SECONDS = 3600;

/** T1 = option 58 or half the lease, T2 = option 59 or 85 % of it (RFC 2131 section 4.4.5, lease.go `commit`). */
export function leaseTimes(ack: DhcpMessage, now: number): LeaseTimes {
  const lease = optU32(ack, Opt.LeaseTime) ?? DEFAULT_LEASE_SECONDS;
  const t2 = optU32(ack, Opt.RebindingTime) ?? (lease * 85) / 100;
  const t1 = optU32(ack, Opt.RenewalTime) ?? lease / 2;
  return { renewAt: now + t1 * 1000, rebindAt: now + t2 * 1000, expireAt: now + lease * 1000 };
}

/** The states of a maintained lease. */
export type LeaseState = "bound" | "renewing" | "rebinding" | "expired" | "released" | "gone";

/** What the maintenance loop needs from the outside: the DHCP exchanges and the link. */
export interface LeaseActions {
  renew(ack: DhcpMessage): Promise<DhcpMessage>;
  rebind(): Promise<DhcpMessage>;
  release(ack: DhcpMessage): void;
  linkExists(): boolean;
  linkDown(): void;
  /** Called with every new ACK (the daemon persists it). */
  committed(ack: DhcpMessage, times: LeaseTimes): void;
  log(msg: string): void;
}

/**
 * Runs one lease until it is released (stop), expires, or its interface disappears.
 * Returns the final state.
 */
export async function maintain(
  start: { ack: DhcpMessage; times: LeaseTimes },
  act: LeaseActions,
  clock: Clock,
  stop: AbortSignal,
  check: () => AbortSignal,
): Promise<LeaseState> {
  let { ack, times } = start;
  let state: LeaseState = "bound";
  const commit = (next: DhcpMessage): void => {
    ack = next;
    times = leaseTimes(next, clock.now());
    act.committed(ack, times);
  };
  for (;;) {
    if (stop.aborted) {
      try {
        act.release(ack);
      } catch (err) {
        act.log(`failed to release DHCP lease: ${(err as Error).message}`);
      }
      return "released";
    }
    if (!act.linkExists()) {
      act.log("interface no longer exists, terminating lease maintenance");
      return "gone";
    }
    let sleep = 0;
    if (state === "bound") {
      sleep = times.renewAt - clock.now();
      if (sleep <= 0) {
        state = "renewing";
        continue;
      }
    } else if (state === "renewing") {
      try {
        commit(await act.renew(ack));
        act.log(`lease renewed, expiration is ${new Date(times.expireAt).toISOString()}`);
        state = "bound";
        continue;
      } catch (err) {
        act.log((err as Error).message);
        if (clock.now() >= times.rebindAt) state = "rebinding";
      }
    } else if (state === "rebinding") {
      try {
        commit(await act.rebind());
        act.log(`lease rebound, expiration is ${new Date(times.expireAt).toISOString()}`);
        state = "bound";
        continue;
      } catch (err) {
        act.log((err as Error).message);
        if (clock.now() >= times.expireAt) {
          act.log("lease expired, bringing interface DOWN");
          act.linkDown();
          return "expired";
        }
      }
    }
    await clock.sleep(sleep, AbortSignal.any([stop, check()]));
  }
}
