/**
 * Private helpers that make decoded JSON look like what Go's `encoding/json` sees when it
 * unmarshals into the reference library's structs: number literals Go cannot put in an
 * int, and object keys matched to struct fields case-insensitively.
 */

/**
 * A JSON number whose literal Go cannot decode into an `int` (a fraction, an exponent,
 * or outside int64). It stays a distinct value so an int field can reject it by its text.
 */
export class NonIntegerNumber {
  constructor(readonly source: string) {}
  toJSON(): number {
    return Number(this.source);
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function _isInt64Literal(source: string): boolean {
  if (!/^-?(0|[1-9][0-9]*)$/.test(source)) return false;
  const n = BigInt(source);
  return n >= INT64_MIN && n <= INT64_MAX;
}

type ReviverContext = { source?: string };

function _reviver(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === "number") {
    const source = context?.source ?? String(value);
    return _isInt64Literal(source) ? value : new NonIntegerNumber(source);
  }
  // Go decodes invalid UTF-16 (lone surrogate escapes) as U+FFFD.
  if (typeof value === "string") return value.toWellFormed();
  return value;
}

const _decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Parses JSON text (or UTF-8 bytes) keeping what Go would notice: numbers that are not
 * int literals become {@link NonIntegerNumber}. Throws a SyntaxError (or RangeError for
 * absurd nesting) on bad input; callers turn it into a CniError.
 */
export function parseJsonLikeGo(input: string | Uint8Array): unknown {
  const text = typeof input === "string" ? input : _decoder.decode(input);
  if (text.trim() === "") throw new SyntaxError("unexpected end of JSON input");
  return JSON.parse(text, _reviver as (this: unknown, key: string, value: unknown) => unknown);
}

/** True for a JSON object (not an array, not null, not a number wrapper). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof NonIntegerNumber);
}

/** The JSON kind of a value, as Go names it in "cannot unmarshal X into ..." errors. */
export function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof NonIntegerNumber) return `number ${value.source}`;
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return Number.isFinite(value) ? `number ${value}` : "number";
    case "boolean":
      return "bool";
    case "object":
      return "object";
    default:
      return typeof value;
  }
}

/**
 * The shape of a Go struct as `encoding/json` sees it: which keys are fields and how deep
 * to look. A leaf is decoded by its schema; unknown keys are ignored, as Go does.
 */
export type GoShape =
  | { readonly kind: "leaf" }
  | { readonly kind: "list"; readonly of: GoShape }
  | { readonly kind: "struct"; readonly fields: Readonly<Record<string, GoShape>> };

/** The leaf shape. */
export const LEAF: GoShape = { kind: "leaf" };

/**
 * Go's key folding (`foldName`: upper(lower(r)) per rune). Only ASCII letters and four
 * non-ASCII runes (the Kelvin sign, long s, dotted and dotless i) fold onto ASCII.
 */
export function goFoldName(key: string): string {
  let out = "";
  for (const ch of key) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) out += ch.toUpperCase();
    else if (c === 0x212a) out += "K";
    else if (c === 0x17f) out += "S";
    else if (c === 0x130 || c === 0x131) out += "I";
    else out += "\u0000"; // cannot match an ASCII field name
  }
  return out;
}

const _foldedFields = new WeakMap<object, Map<string, string>>();

function _fieldIndex(fields: Readonly<Record<string, GoShape>>): Map<string, string> {
  let index = _foldedFields.get(fields);
  if (index === undefined) {
    index = new Map(Object.keys(fields).map((f) => [goFoldName(f), f]));
    _foldedFields.set(fields, index);
  }
  return index;
}

/**
 * Renames object keys to the struct fields Go would match them to (case-insensitively;
 * a later matching key overwrites an earlier one) and drops keys Go ignores. Values that
 * are not objects or arrays where the shape expects them are left for the schema to reject.
 */
export function foldToShape(value: unknown, shape: GoShape): unknown {
  if (shape.kind === "list") {
    return Array.isArray(value) ? value.map((item) => foldToShape(item, shape.of)) : value;
  }
  if (shape.kind === "leaf" || !isJsonObject(value)) return value;
  const index = _fieldIndex(shape.fields);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = Object.hasOwn(shape.fields, key) ? key : index.get(goFoldName(key));
    const sub = field === undefined ? undefined : shape.fields[field];
    if (field !== undefined && sub !== undefined) out[field] = foldToShape(value[key], sub);
  }
  return out;
}
