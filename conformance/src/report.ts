/**
 * The report: a table of rows (case, plugin, rule, result, reason) and the summary line
 * `N passed, N failed`.
 */
import type { Row } from "./types.ts";

/** Counts of a run. */
export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
}

/** Counts the rows by status. */
export function summarize(rows: readonly Row[]): Summary {
  return {
    passed: rows.filter((r) => r.status === "pass").length,
    failed: rows.filter((r) => r.status === "fail").length,
    skipped: rows.filter((r) => r.status === "skip").length,
  };
}

/**
 * The table and the summary, as printed by `cni conformance`.
 *
 * @example formatReport([{ id: "fw.version", plugin: "loopback", rule: "VER-2", status: "pass", reason: "" }])
 */
export function formatReport(rows: readonly Row[]): string {
  const head = { id: "CASE", plugin: "PLUGIN", rule: "RULE", status: "RESULT", reason: "REASON" };
  const all = [head, ...rows];
  const w = (k: "id" | "plugin" | "rule" | "status") => Math.max(...all.map((r) => r[k].length));
  const line = (r: typeof head) =>
    [
      r.id.padEnd(w("id")),
      r.plugin.padEnd(w("plugin")),
      r.rule.padEnd(w("rule")),
      r.status.padEnd(w("status")),
      r.reason,
    ]
      .join("  ")
      .trimEnd();
  const s = summarize(rows);
  const tail = [`${s.passed} passed, ${s.failed} failed`];
  if (s.skipped > 0) tail.push(`${s.skipped} skipped`);
  return `${all.map(line).join("\n")}\n\n${tail.join("\n")}\n`;
}
