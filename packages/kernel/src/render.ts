/**
 * A batch printed as the iproute2 shell script it amounts to (the knftables model in
 * CONVENTIONS.md: printing the plan is a free dry run). Each block is one segment, and its
 * body is the exact text the Linux driver feeds to `ip -batch -` or `bridge -batch -`.
 * Pure.
 */
import { HOST, type KernelBatch, type Netns } from "./ops.ts";
import { segmentBatch, type Segment } from "./segments.ts";

/** Options of {@link renderBatch}. */
export interface RenderOptions {
  /**
   * How a container namespace names the host one in `netns ...` arguments. The default,
   * `/proc/$$/ns/net`, is the namespace of the shell running the script (the plugin's own).
   */
  hostRef?: string;
}

/** The default host reference: expanded by the shell that runs the printed script. */
export const SHELL_HOST_REF = "/proc/$$/ns/net";

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@+,%-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

function prefix(ns: Netns): string {
  return ns === HOST ? "" : `nsenter --net=${shellQuote(ns)} `;
}

function heredoc(command: string, lines: readonly string[], hostRef: string): string[] {
  // A body that names the host through `$$` needs the shell to expand it; escape the rest.
  const expand = hostRef.includes("$") && lines.some((l) => l.includes(hostRef));
  if (!expand) return [`${command} <<'EOF'`, ...lines, "EOF"];
  const escaped = lines.map((l) =>
    l
      .split(hostRef)
      .map((part) => part.replace(/[\\$`]/g, (c) => `\\${c}`))
      .join(hostRef),
  );
  return [`${command} <<EOF`, ...escaped, "EOF"];
}

function block(seg: Segment, hostRef: string): string[] {
  const last = seg.first + seg.lines.length - 1;
  const ops = last === seg.first ? `op ${seg.first}` : `ops ${seg.first}-${last}`;
  const head = `# ${seg.ns === HOST ? "host namespace" : `netns ${seg.ns}`}: ${ops}`;
  const p = prefix(seg.ns);
  switch (seg.tool) {
    case "ip":
      return [head, ...heredoc(`${p}ip -batch -`, seg.lines, hostRef)];
    case "bridge":
      return [head, ...heredoc(`${p}bridge -batch -`, seg.lines, hostRef)];
    case "ip6":
      return [head, ...heredoc(`${p}ip -6 -batch -`, seg.lines, hostRef)];
    case "tc":
      return [head, ...heredoc(`${p}tc -batch -`, seg.lines, hostRef)];
    case "sysctl":
      return [head, ...seg.lines.map((l) => `${p}sysctl -w ${shellQuote(l)}`)];
  }
}

/**
 * Prints a batch as a runnable iproute2 script, one block per namespace run, one line per
 * operation; stops at the first failure (`set -e`) like the driver. Throws KernelError
 * `invalid` (with the op's index) for a value that cannot appear on a batch line.
 */
export function renderBatch(batch: KernelBatch, opts: RenderOptions = {}): string {
  const hostRef = opts.hostRef ?? SHELL_HOST_REF;
  const segments = segmentBatch(batch, hostRef);
  if (segments.length === 0) return "# empty batch: nothing to do\n";
  const s = (n: number, w: string): string => `${n} ${w}${n === 1 ? "" : "s"}`;
  const out = ["#!/bin/sh", `# ${s(batch.length, "operation")} in ${s(segments.length, "step")}`, "set -e"];
  for (const seg of segments) out.push(...block(seg, hostRef));
  return `${out.join("\n")}\n`;
}
