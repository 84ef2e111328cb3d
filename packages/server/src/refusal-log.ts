/**
 * Log lines for refused requests, at most one per reason per interval (issue 16 item 3):
 * a flood of junk must not become a flood of synchronous log writes on the daemon's one
 * thread. `/metrics` still counts every refusal; the lines say how many they stand for.
 */
import { logLine, type LogSink } from "./log.ts";
import type { RefusalReason } from "./metrics.ts";

/** One line per reason per `intervalMs`; the next line says how many were left out. */
export function refusalLogger(
  log: LogSink,
  intervalMs = 1_000,
  now: () => number = () => performance.now(),
): (reason: RefusalReason, status: number, msg: string) => void {
  const last = new Map<RefusalReason, { at: number; suppressed: number }>();
  return (reason, status, msg) => {
    const t = now();
    const seen = last.get(reason);
    if (seen !== undefined && t - seen.at < intervalMs) {
      seen.suppressed++;
      return;
    }
    const suppressed = seen?.suppressed ?? 0;
    last.set(reason, { at: t, suppressed: 0 });
    log(logLine("warn", `refused a request: ${msg}`, { reason, status, ...(suppressed > 0 ? { suppressed } : {}) }));
  };
}
