/**
 * JSON parsing that fails with the texts Go's encoding/json uses, so decoding errors
 * read like the reference's (E-5, RP-2).
 */

/** Go's `%q` of a string, close enough for messages: a JSON string literal. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** What Go's json.Unmarshal says about input that is not JSON. */
export function goJsonSyntaxError(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "unexpected end of JSON input";
  const first = trimmed[0] ?? "";
  if (!/[{["\-0-9tfn]/.test(first)) return `invalid character '${first}' looking for beginning of value`;
  try {
    JSON.parse(trimmed);
    return "";
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/unexpected end|unterminated|end of data/i.test(msg)) return "unexpected end of JSON input";
    return `invalid JSON: ${msg.charAt(0).toLowerCase()}${msg.slice(1)}`;
  }
}

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
    throw new Error(goJsonSyntaxError(text));
  }
}
