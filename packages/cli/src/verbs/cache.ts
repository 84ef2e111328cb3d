/**
 * `cni cache ls [container-id]` and `cni cache show <network> <container-id> <ifname>`:
 * what the result cache holds (§7.4, §7.9).
 */
import { cacheFileName } from "@tscni/runtime";
import type { NetworkAttachment } from "@tscni/runtime";
import { CniError, ErrorCode } from "@tscni/spec";
import type { Verb } from "../io.ts";
import { UsageError, runVerb, runtimeFor } from "./_cnitool.ts";

const help = `usage: cni cache ls [<container-id>] [--cache-dir <dir>]
       cni cache show <network-name> <container-id> <ifname> [--cache-dir <dir>]

ls    lists the cached attachments (all, or one container's) as a table
show  prints one attachment's cache record with its config decoded

The cache dir is --cache-dir, else $CNI_CACHE_DIR, else /var/lib/cni.
`;

function table(rows: readonly NetworkAttachment[]): string {
  const head = ["NETWORK", "CONTAINER", "IFNAME", "NETNS"];
  const cells = rows.map((a) => [a.network, a.containerID, a.ifName, a.netns === "" ? "-" : a.netns]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  return `${[head, ...cells].map(line).join("\n")}\n`;
}

function parseRecord(text: string, name: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new CniError(ErrorCode.DecodingFailure, `cache record ${JSON.stringify(name)} is not a JSON object`);
}

/** The cache verb. */
export const verb: Verb = {
  summary: "list or show cached attachments (the result cache)",
  help,
  run: (io) =>
    runVerb(io, help, async (args) => {
      const [sub, ...rest] = args.positionals;
      const runtime = runtimeFor(io, args);
      if (sub === "ls") {
        if (rest.length > 1) throw new UsageError("cache ls takes at most one container ID");
        io.stdout(table(await runtime.getCachedAttachments(rest[0] ?? "")));
        return;
      }
      if (sub === "show") {
        const [network, containerID, ifName] = rest;
        if (network === undefined || containerID === undefined || ifName === undefined)
          throw new UsageError("cache show needs <network-name> <container-id> <ifname>");
        const name = cacheFileName(network, { containerID, ifName });
        const text = await Bun.file(`${runtime.cacheDir}/results/${name}`)
          .text()
          .catch(() => undefined);
        if (text === undefined)
          throw new CniError(
            ErrorCode.UnknownContainer,
            `no cached attachment ${JSON.stringify(name)} in ${runtime.cacheDir}`,
          );
        const record = parseRecord(text, name);
        // The config is stored as base64 (CACHE-3); show it as the JSON it is.
        if (typeof record.config === "string") {
          const config = new TextDecoder().decode(Buffer.from(record.config, "base64"));
          try {
            record.config = JSON.parse(config) as unknown;
          } catch {
            record.config = config;
          }
        }
        io.stdout(`${JSON.stringify(record, null, 4)}\n`);
        return;
      }
      throw new UsageError(
        sub === undefined ? "cache needs a subcommand: ls or show" : `unknown cache subcommand "${sub}"`,
      );
    }),
};
