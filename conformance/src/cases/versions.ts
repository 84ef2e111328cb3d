/**
 * What a plugin says it supports (VERSION, VER-2), and the config version a case uses.
 */
import { compareVersions } from "@tscni/spec";
import { check, expectResult } from "../judge.ts";
import { Skip } from "../types.ts";
import type { CaseContext } from "../types.ts";

/** The VERSION reply, validated (VER-2, VER-6). */
export interface VersionReply {
  cniVersion: string;
  supportedVersions: string[];
}

/** Asks the plugin for its versions as a runtime probes (VER-4) and validates the reply. */
export async function versionOf(ctx: CaseContext): Promise<VersionReply> {
  const out = await ctx.call("VERSION", {
    env: { CNI_NETNS: "dummy", CNI_IFNAME: "dummy", CNI_PATH: "dummy" },
    stdin: { cniVersion: "1.1.0" },
  });
  const r = expectResult(out);
  check(
    typeof r.cniVersion === "string" && r.cniVersion !== "",
    `VERSION reply lacks a cniVersion string: ${out.stdout.trim()}`,
  );
  let supported = r.supportedVersions;
  // A 0.2.0 reply without the list means 0.1.0 and 0.2.0 (VER-6).
  if (supported === undefined && r.cniVersion === "0.2.0") supported = ["0.1.0", "0.2.0"];
  check(
    Array.isArray(supported) && supported.length > 0 && supported.every((v) => typeof v === "string"),
    `VERSION reply needs a non-empty supportedVersions list of strings: ${out.stdout.trim()}`,
  );
  return { cniVersion: r.cniVersion, supportedVersions: supported as string[] };
}

/** The highest supported version of `candidates` (all known versions by default); skips when none. */
export async function pickVersion(ctx: CaseContext, candidates?: readonly string[]): Promise<string> {
  const { supportedVersions } = await versionOf(ctx);
  const usable = supportedVersions.filter((v) => (candidates ?? supportedVersions).includes(v));
  const best = usable.sort((a, b) => safeCompare(b, a))[0];
  if (best === undefined) throw new Skip(`plugin supports none of ${JSON.stringify(candidates)}`);
  return best;
}

function safeCompare(a: string, b: string): number {
  try {
    return compareVersions(a, b);
  } catch {
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

/** Every spec version from 0.3.0 on: the result families with `ips` and `interfaces`. */
export const RICH_VERSIONS: readonly string[] = ["0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"];
