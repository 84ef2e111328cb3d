/**
 * The daemon's `/metrics` in the Prometheus text format (version 0.0.4): per-verb call
 * latency as a histogram, calls in flight and queued, errors by CNI code, refused
 * requests by reason, open connections and the process's resident memory.
 */

import type { RangeUsage } from "./pool-usage.ts";

/** A label value in the exposition format: backslash, quote and newline escaped. */
const label = (value: string): string => value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));

/** Histogram buckets in seconds: an in-process ADD is milliseconds, a slow DEL seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** Why a request was refused before it ran. */
export type RefusalReason =
  | "body-too-large"
  | "headers-too-large"
  | "header-timeout"
  | "pending-headers-full"
  | "body-timeout"
  | "too-many-connections"
  | "queue-full"
  | "draining"
  | "malformed";

/** The live counters of one daemon. */
export class DaemonMetrics {
  readonly #latency = new Map<string, Histogram>();
  readonly #errors = new Map<number, number>();
  readonly #refused = new Map<RefusalReason, number>();
  inFlight = 0;
  queued = 0;
  connections = 0;

  /** Records one finished call of `verb` that took `seconds`, failed with `code` if any. */
  observe(verb: string, seconds: number, code?: number): void {
    let h = this.#latency.get(verb);
    if (h === undefined) this.#latency.set(verb, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) h.counts[i]!++;
    });
    h.sum += seconds;
    h.count++;
    if (code !== undefined) this.#errors.set(code, (this.#errors.get(code) ?? 0) + 1);
  }

  /** Counts a refused request (its code 11 or 5 is counted as an error too). */
  refuse(reason: RefusalReason, code: number): void {
    this.#refused.set(reason, (this.#refused.get(reason) ?? 0) + 1);
    this.#errors.set(code, (this.#errors.get(code) ?? 0) + 1);
  }

  /**
   * The exposition text.
   *
   * `pools` is the IPAM usage of the default network's host-local ranges.
   *
   * @example new Response(metrics.render(process.memoryUsage.rss(), poolUsage(list)), { headers: { "content-type": METRICS_CONTENT_TYPE } })
   */
  render(rssBytes: number, pools: readonly RangeUsage[] = []): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string): void =>
      void out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family("tscni_daemon_call_duration_seconds", "histogram", "Time to answer one CNI call, by verb.");
    for (const [verb, h] of [...this.#latency].sort(([a], [b]) => a.localeCompare(b))) {
      BUCKETS.forEach((le, i) =>
        out.push(`tscni_daemon_call_duration_seconds_bucket{verb="${verb}",le="${le}"} ${h.counts[i]}`),
      );
      out.push(`tscni_daemon_call_duration_seconds_bucket{verb="${verb}",le="+Inf"} ${h.count}`);
      out.push(
        `tscni_daemon_call_duration_seconds_sum{verb="${verb}"} ${h.sum}`,
        `tscni_daemon_call_duration_seconds_count{verb="${verb}"} ${h.count}`,
      );
    }
    family("tscni_daemon_calls_in_flight", "gauge", "CNI calls running now.");
    out.push(`tscni_daemon_calls_in_flight ${this.inFlight}`);
    family("tscni_daemon_calls_queued", "gauge", "CNI calls waiting for a slot.");
    out.push(`tscni_daemon_calls_queued ${this.queued}`);
    family("tscni_daemon_errors_total", "counter", "Answers with a CNI error, by code.");
    for (const [code, n] of [...this.#errors].sort(([a], [b]) => a - b))
      out.push(`tscni_daemon_errors_total{code="${code}"} ${n}`);
    family("tscni_daemon_refused_total", "counter", "Requests refused before they ran, by reason.");
    for (const [reason, n] of [...this.#refused].sort(([a], [b]) => a.localeCompare(b)))
      out.push(`tscni_daemon_refused_total{reason="${reason}"} ${n}`);
    family("tscni_daemon_connections", "gauge", "Open connections.");
    out.push(`tscni_daemon_connections ${this.connections}`);
    family("tscni_ipam_range_allocated", "gauge", "Addresses reserved in a host-local range of the default network.");
    for (const p of pools)
      out.push(`tscni_ipam_range_allocated{network="${label(p.network)}",range="${label(p.range)}"} ${p.allocated}`);
    family(
      "tscni_ipam_range_size",
      "gauge",
      "Addresses a host-local range of the default network can give (its gateway excluded).",
    );
    for (const p of pools)
      out.push(`tscni_ipam_range_size{network="${label(p.network)}",range="${label(p.range)}"} ${p.size}`);
    family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    out.push(`process_resident_memory_bytes ${rssBytes}`);
    return `${out.join("\n")}\n`;
  }
}

/** The content type of the text exposition format. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
