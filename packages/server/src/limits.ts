/**
 * The daemon's own bounds (issue 16 item 3): what one connection and one request may
 * cost before the daemon answers with a CNI error instead of serving it.
 */

/** Every bound of the daemon; each has a default in {@link DEFAULT_LIMITS}. */
export interface DaemonLimits {
  /** Largest request body; a longer one is refused with HTTP 413 before it is read. */
  readonly maxBodyBytes: number;
  /** Largest request line plus headers; more is refused with HTTP 431. */
  readonly maxHeaderBytes: number;
  /** Time from connect to the end of the headers; then HTTP 408. */
  readonly headerTimeoutMs: number;
  /** Time from the end of the headers to the end of the body; then HTTP 408. */
  readonly bodyTimeoutMs: number;
  /** Open connections at once; one more is answered HTTP 503 (code 11) and closed. */
  readonly maxConnections: number;
  /**
   * Connections still sending their headers (a budget of their own, inside
   * `maxConnections`): past it, or at the connection cap, a new connection makes the
   * oldest of them answer HTTP 408 and close once it has been open for a second, so
   * stalled connections never hold the places of calls that send a whole request. A
   * burst of fresh ones evicts nobody; only the connection cap refuses (HTTP 503).
   */
  readonly maxPendingHeaders: number;
  /** CNI calls running at once; more wait in a queue. */
  readonly maxConcurrent: number;
  /** CNI calls waiting for a slot; one more is answered HTTP 503 (code 11). */
  readonly maxQueued: number;
  /** How long a drain (SIGTERM) waits for calls in flight before it stops anyway. */
  readonly drainTimeoutMs: number;
}

/** The defaults: 1 MiB bodies, 5 s for headers, 10 s for a body, 512 connections of which 128 still sending headers (a stalled one costs little; valid calls must keep getting in). */
export const DEFAULT_LIMITS: DaemonLimits = {
  maxBodyBytes: 1 << 20,
  maxHeaderBytes: 16 << 10,
  headerTimeoutMs: 5_000,
  bodyTimeoutMs: 10_000,
  maxConnections: 512,
  maxPendingHeaders: 128,
  maxConcurrent: 32,
  maxQueued: 512,
  drainTimeoutMs: 60_000,
};

/** The defaults with `overrides` applied. */
export function daemonLimits(overrides: Partial<DaemonLimits> = {}): DaemonLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}
