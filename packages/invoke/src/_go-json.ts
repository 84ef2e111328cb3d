/**
 * JSON parsing that fails with the texts Go's encoding/json uses, so decoding errors
 * read like the reference's (E-5, RP-2). The Go emulation itself lives in `@tscni/spec/go`.
 */
import { goJsonSyntaxError } from "@tscni/spec/go";

export { goQuote } from "@tscni/spec/go";

/** The JSON type name Go reports in "cannot unmarshal <type> into ...". */
export function goJsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}

/** Parses JSON; throws an Error whose message is Go's wording for the syntax error. */
export function parseGoJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(goJsonSyntaxError(new TextEncoder().encode(text)) ?? "unexpected end of JSON input");
  }
}
