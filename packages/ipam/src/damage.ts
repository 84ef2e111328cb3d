/**
 * Telling a damaged reservation file from a sound one (issue 16 item 2). A crash or a
 * full disk leaves a file empty, truncated or full of garbage; the reference then never
 * releases it (its DEL matches the exact content), so the address leaks for good. We
 * recover it only where its owner is known for sure, never by guessing (§8.3, DEL-3).
 */
import { formatHolder } from "./store.ts";

// The container ID rule (VAL-2) and an interface name without whitespace, `/` or `:` (VAL-3).
const SOUND_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*(\r\n[^\s/:]{1,15})?$/u;

/** True when `content` is what some store writes: `<cid>\r\n<ifname>` or a legacy `<cid>`. */
export function isSoundHolder(content: string): boolean {
  return SOUND_RE.test(content);
}

/**
 * True when `content` can only be a damaged copy of (id, ifname)'s holder: not sound, or a
 * proper prefix of it (a truncated write). A sound, different holder is someone else's.
 */
export function isDamagedCopyOf(content: string, id: string, ifname: string): boolean {
  const expected = formatHolder(id, ifname);
  if (content === expected) return false;
  if (!isSoundHolder(content)) return true;
  return expected.startsWith(content) && content.length < expected.length;
}

/** `text` safe for a terminal and a one-line report: control and non-ASCII characters escaped, at most `max` characters shown. */
export function escapeForReport(text: string, max = 64): string {
  const shown = [...text.slice(0, max)].map((c) => {
    const code = c.codePointAt(0) ?? 0;
    if (c === "\\") return "\\\\";
    if (code >= 0x20 && code < 0x7f) return c;
    if (c === "\r") return "\\r";
    if (c === "\n") return "\\n";
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
  return `${shown.join("")}${text.length > max ? `...(${text.length} chars)` : ""}`;
}
