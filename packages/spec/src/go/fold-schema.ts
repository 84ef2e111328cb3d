/**
 * The reference plugins decode their stdin into their NetConf structs with Go's
 * encoding/json, which matches keys to fields case-insensitively: `{"Bridge":"br9"}` is
 * the bridge `br9` there. Our plugins check the JSON.parse value with valibot object
 * schemas, which match exactly; this renames keys onto the schema's fields first, as Go
 * would match them (exact name, else the first field whose name folds alike; a later
 * spelling wins, but `null` does not undo an earlier spelling's value, as Go's null leaves
 * a non-slice field alone). Only what the schema declares is renamed; other keys pass.
 */
import { goFoldName } from "../_gojson.ts";

/** The parts of a valibot schema this walks (object entries, array items, wrappers, pipes). */
interface SchemaLike {
  readonly type?: string;
  readonly wrapped?: SchemaLike;
  readonly pipe?: readonly SchemaLike[];
  readonly entries?: Readonly<Record<string, SchemaLike>>;
  readonly item?: SchemaLike;
}

const WRAPPERS = new Set(["nullish", "optional", "nullable", "undefinedable", "exact_optional"]);

/** The schema under nullish/optional wrappers. */
function unwrap(schema: SchemaLike): SchemaLike {
  let s = schema;
  while (s.type !== undefined && WRAPPERS.has(s.type) && s.wrapped !== undefined) s = s.wrapped;
  return s;
}

/** The object entries or array item a schema (or a schema in its pipe) declares. */
function shapeOf(schema: SchemaLike): { entries?: Readonly<Record<string, SchemaLike>>; item?: SchemaLike } {
  const s = unwrap(schema);
  for (const part of [s, ...(s.pipe ?? [])]) {
    if (part.entries !== undefined) return { entries: part.entries };
    if (part.type === "array" && part.item !== undefined) return { item: part.item };
  }
  return {};
}

interface FieldIndex {
  /** Folded name to the first field (in declaration order) that folds so. */
  readonly folded: Map<string, string>;
  /** The fields' lengths: the runes Go folds onto ASCII are one UTF-16 unit, so no other length can match. */
  readonly lengths: Set<number>;
}

const indexes = new WeakMap<object, FieldIndex>();

function indexOf(entries: Readonly<Record<string, SchemaLike>>): FieldIndex {
  let index = indexes.get(entries);
  if (index === undefined) {
    const folded = new Map<string, string>();
    for (const f of Object.keys(entries)) if (!folded.has(goFoldName(f))) folded.set(goFoldName(f), f);
    index = { folded, lengths: new Set(Object.keys(entries).map((f) => f.length)) };
    indexes.set(entries, index);
  }
  return index;
}

/** The field `key` decodes into, or undefined for a key Go skips. */
function fieldOf(entries: Readonly<Record<string, SchemaLike>>, key: string): string | undefined {
  if (Object.hasOwn(entries, key)) return key;
  const index = indexOf(entries);
  return index.lengths.has(key.length) ? index.folded.get(goFoldName(key)) : undefined;
}

/** True when Go's `null` zeroes the field (a slice or map); a string, number, bool or struct keeps its value. */
function zeroedByNull(schema: SchemaLike): boolean {
  const s = unwrap(schema);
  return (
    s.type === "array" || s.type === "record" || (s.pipe ?? []).some((p) => p.type === "array" || p.type === "record")
  );
}

/**
 * `value` with its keys renamed onto `schema`'s fields as Go's decoder matches them, at
 * every level the schema describes. Returns `value` itself when nothing needs renaming.
 */
export function foldToSchema(value: unknown, schema: SchemaLike): unknown {
  const { entries, item } = shapeOf(schema);
  if (item !== undefined) {
    if (!Array.isArray(value)) return value;
    const out = value.map((e) => foldToSchema(e, item));
    return out.some((e, i) => e !== value[i]) ? out : value;
  }
  if (entries === undefined || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  // The common case renames nothing: then only the values the schema describes are walked.
  let renames = false;
  const subs = new Map<string, unknown>();
  for (const key of Object.keys(obj)) {
    const field = fieldOf(entries, key);
    if (field !== undefined && field !== key) {
      renames = true;
      break;
    }
    const sub = field === undefined ? undefined : entries[field];
    if (sub === undefined) continue;
    const v = foldToSchema(obj[key], sub);
    if (v !== obj[key]) subs.set(key, v);
  }
  if (!renames)
    return subs.size === 0
      ? value
      : Object.fromEntries(Object.keys(obj).map((k) => [k, subs.has(k) ? subs.get(k) : obj[k]]));
  const out: [string, unknown][] = [];
  const at = new Map<string, number>();
  for (const key of Object.keys(obj)) {
    const field = fieldOf(entries, key) ?? key;
    const sub = entries[field];
    const v = sub === undefined ? obj[key] : foldToSchema(obj[key], sub);
    const prev = at.get(field);
    if (prev === undefined) {
      at.set(field, out.length);
      out.push([field, v]);
    } else if (v !== null || sub === undefined || zeroedByNull(sub)) (out[prev] as [string, unknown])[1] = v;
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return Object.fromEntries(out);
}
