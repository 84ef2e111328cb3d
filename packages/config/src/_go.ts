/**
 * How Go's encoding/json and fmt name things, so our messages read like libcni's.
 */

export { goJsonKind, goQuote, goTypeName } from "@tscni/spec/go";

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Non-ASCII letters Go's field-name folding maps onto ASCII: long s, Kelvin sign, dotless i.
const FOLD_SPECIAL: Readonly<Record<string, string>> = { "\u017f": "S", "\u212a": "K", "\u0131": "I" };

/**
 * Go's case-insensitive struct field matching: ASCII letters fold to upper case, and the few
 * non-ASCII letters that fold onto ASCII do too (`"Type"`, `"TYPE"` match field `type`).
 */
export function goFoldName(name: string): string {
  let out = "";
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(c - 0x20);
    else out += FOLD_SPECIAL[ch] ?? ch;
  }
  return out;
}
