/**
 * How Go's fmt and encoding/json name values in messages (`%q`, `%T`, the kind word of
 * an UnmarshalTypeError), so our messages read like the reference's, in one place.
 */
import { NonIntegerNumber } from "../_gojson.ts";

/** Go's `%T` of a value decoded into `interface{}` (string, float64, bool, <nil>, ...). */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return "string";
  if (typeof value === "number" || value instanceof NonIntegerNumber) return "float64";
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

const GO_ESCAPES: Readonly<Record<string, string>> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\\": "\\\\",
  '"': '\\"',
};

/** Go's `%q` for a string: a double-quoted literal with Go's escapes (strconv.Quote). */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const named = GO_ESCAPES[ch];
    const cp = ch.codePointAt(0) ?? 0;
    if (named !== undefined) out += named;
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (!isGoPrintable(cp))
      out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, "0")}` : `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Go's unicode.IsPrint for the characters that matter in names: letters, marks,
 * numbers, punctuation, symbols and the ASCII space; other spaces, format and control
 * characters (for example U+200B, U+00A0) are escaped.
 */
function isGoPrintable(cp: number): boolean {
  if (cp === 0x20) return true;
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(String.fromCodePoint(cp));
}
