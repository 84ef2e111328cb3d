/**
 * How `cni leaks` prints its findings: a table and a one-line summary.
 */
import type { Leak, LeakKind } from "./find.ts";

const KINDS: readonly LeakKind[] = [
  "stale attachment",
  "leaked address",
  "missing reservation",
  "unknown attachment",
  "damaged reservation",
];

/** The findings as an aligned table (network, kind, container, ifname, address or netns, why). */
export function leakTable(leaks: readonly Leak[]): string {
  const head = ["NETWORK", "KIND", "CONTAINER", "IFNAME", "ADDRESS/NETNS", "WHY"];
  const cells = leaks.map((l) => [l.network, l.kind, l.containerID, l.ifName, l.where, l.why]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  return `${[head, ...cells].map(line).join("\n")}\n`;
}

/** One line: how many networks were checked and how many leaks of each kind were found. */
export function leakSummary(leaks: readonly Leak[], networks: number): string {
  const where = `${networks} network${networks === 1 ? "" : "s"}`;
  if (leaks.length === 0) return `no leaks in ${where}\n`;
  const counts = KINDS.map((k) => [k, leaks.filter((l) => l.kind === k).length] as const).filter(([, n]) => n > 0);
  const parts = counts.map(([k, n]) => `${n} ${k}${n === 1 ? "" : "s"}`);
  return `${leaks.length} leak${leaks.length === 1 ? "" : "s"} in ${where}: ${parts.join(", ")}\n`;
}
