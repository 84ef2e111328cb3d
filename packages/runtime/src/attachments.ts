/**
 * Listing the cache's attachments (GA-1..GA-4).
 */
import { decodeAttachment, nameMayMatch } from "./cache.ts";
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
