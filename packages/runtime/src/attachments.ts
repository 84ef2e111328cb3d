/**
 * Listing the cache's attachments (GA-1..GA-4).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CACHE_KIND, decodeAttachment, nameMayMatch } from "./cache.ts";
import type { DiskCache } from "./cache-disk.ts";
import type { NetworkAttachment } from "./runtime-conf.ts";

/**
 * Every cached attachment, by file name order; with a non-empty `containerID`, only that
 * container's. Unreadable, foreign or incomplete files are skipped.
 */
export async function cachedAttachments(cache: DiskCache, containerID = ""): Promise<NetworkAttachment[]> {
  const out: NetworkAttachment[] = [];
  for (const name of await cache.names()) {
    if (!nameMayMatch(name, containerID)) continue;
    const text = await cache.read(name);
    if (text === undefined) continue;
    const attachment = decodeAttachment(text, containerID);
    if (attachment !== undefined) out.push(attachment);
  }
  return out;
}

/** A cache file that names an attachment but cannot be decoded: its attachment is unknown. */
export interface UnreadableRecord {
  /** The file name in `<cacheDir>/results/`: `<net>-<cid>-<if>` (CACHE-1). */
  readonly name: string;
  /** Why it cannot be decoded, in a few words. */
  readonly reason: string;
}

function whyUndecodable(text: string): string {
  if (text.trim() === "") return "the file is empty";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON (truncated or garbage)";
  }
  const record = value as { kind?: unknown; ifName?: unknown; networkName?: unknown } | null;
  if (record === null || typeof record !== "object" || Array.isArray(record)) return "not a JSON object";
  if (record.kind !== CACHE_KIND) return `kind is not ${CACHE_KIND} (a legacy bare result?)`;
  return "no ifName or networkName";
}

/**
 * The cache files {@link cachedAttachments} skips (GA-3): unreadable, not JSON, another
 * kind, incomplete. libcni ignores them; a repair must not, because the pod they describe
 * may be alive (issue 16 item 1): its addresses are then of an unknown owner, never free.
 */
export async function unreadableRecords(cache: DiskCache): Promise<UnreadableRecord[]> {
  const out: UnreadableRecord[] = [];
  for (const name of await cache.names()) {
    let text: string;
    try {
      text = await readFile(join(cache.resultsDir, name), "utf8");
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === "ENOENT") continue; // removed while we listed
      out.push({ name, reason: `cannot be read (${code ?? String(err)})` });
      continue;
    }
    if (decodeAttachment(text, "") === undefined) out.push({ name, reason: whyUndecodable(text) });
  }
  return out;
}
