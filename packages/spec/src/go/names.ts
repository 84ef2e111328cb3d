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

/** Go's `%q` of a string: double quotes, backslash escapes, printable Unicode kept. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\x07") out += "\\a";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\v") out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
