/**
 * How Go's encoding/json and fmt name things, so our messages read like libcni's.
 */

/** Go's `%T` of a value decoded into `interface{}` (string, float64, bool, <nil>, ...). */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "float64";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "[]interface {}";
  return "map[string]interface {}";
}

/** The JSON kind word of Go's `UnmarshalTypeError` (string, number, bool, array, object). */
export function goJsonKind(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "array";
  return value === null ? "null" : "object";
}

/** Go's `%q` of a string: double quotes, backslash escapes, printable Unicode kept. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

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
