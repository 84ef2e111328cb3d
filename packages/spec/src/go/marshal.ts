/**
 * JSON bytes as Go's encoding/json writes a decoded `map[string]interface{}`: compact,
 * object keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. libcni re-encodes every
 * request this way (RC-6) and writes its cache this way (CACHE-3).
 */

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The compact Go encoding of a JSON value (keys sorted at every level). */
export function goMarshal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return goString(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(goMarshal).join(",")}]`;
  if (value instanceof Uint8Array) return goString(Buffer.from(value).toString("base64"));
  if (typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${goString(k)}:${goMarshal(obj[k])}`).join(",")}}`;
  }
  return "null";
}

/** {@link goMarshal} as UTF-8 bytes. */
export function goMarshalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(goMarshal(value));
}
