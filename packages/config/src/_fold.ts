/**
 * Go's encoding/json matches JSON keys to struct fields case-insensitively (`"Type"` fills
 * `Type`). We fold the keys of the known fields onto their canonical spelling, keeping
 * the original spelling so that error paths point at what the file says.
 */
import { goFoldName, isJsonObject } from "@tscni/spec/go";

/** The known fields of a Go struct: `null` for a leaf, a nested shape, or `[shape]` for a slice of structs. */
export interface Shape {
  readonly [field: string]: Shape | readonly [Shape] | null;
}

/** The original key of each canonical field that was spelt differently, per folded object. */
export type Renames = WeakMap<object, ReadonlyMap<string, string>>;

/** Folds the known keys of `value` (recursively, per `shape`); other values pass through. */
export function foldKeys(value: unknown, shape: Shape, renames: Renames): unknown {
  if (!isJsonObject(value)) return value;
  const canonical = new Map(Object.keys(shape).map((field) => [goFoldName(field), field]));
  const renamed = new Map<string, string>();
  const entries: [string, unknown][] = [];
  for (const [key, raw] of Object.entries(value)) {
    const field = canonical.get(goFoldName(key));
    if (field === undefined) {
      entries.push([key, raw]);
      continue;
    }
    // Go keeps the last matching key, as Object.fromEntries does below.
    if (field !== key) renamed.set(field, key);
    else renamed.delete(field);
    const sub = shape[field];
    if (sub === null || sub === undefined) entries.push([field, raw]);
    else if (Array.isArray(sub)) {
      const elem = (sub as readonly [Shape])[0];
      entries.push([field, Array.isArray(raw) ? raw.map((e) => foldKeys(e, elem, renames)) : raw]);
    } else entries.push([field, foldKeys(raw, sub as Shape, renames)]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  const out = Object.fromEntries(entries);
  if (renamed.size > 0) renames.set(out, renamed);
  return out;
}
