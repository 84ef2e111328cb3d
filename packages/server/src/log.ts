/**
 * Structured logs of the daemon: one JSON object per line, with the request id and the
 * W3C `traceparent` of the request when it carries one (as a header, or as `TRACEPARENT`
 * in the forwarded environment).
 */

/** The fields of one log line beyond time, level and message. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** Writes one structured line. */
export type LogSink = (line: string) => void;

/**
 * One JSON line: `time`, `level`, `msg`, then the fields that are defined.
 *
 * @example logLine("info", "ADD c1 eth0: ok", { requestId: "r1" })
 */
export function logLine(level: "info" | "warn" | "error", msg: string, fields: LogFields = {}): string {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return JSON.stringify({ time: new Date().toISOString(), level, msg, ...defined });
}

/** A `traceparent` value as W3C Trace Context defines it, or undefined for anything else. */
export function validTraceparent(value: string | undefined | null): string | undefined {
  return value != null && /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/.test(value) ? value : undefined;
}
