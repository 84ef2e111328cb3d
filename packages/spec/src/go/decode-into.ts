/**
 * Go's `json.Unmarshal` into a typed value, read straight from the JSON text so that
 * EVERY occurrence of a key counts: a struct matches keys to fields case-insensitively
 * (exact name first, then the first field whose name folds the same) and decodes each
 * occurrence into the field in turn, so a wrong type in an earlier occurrence is an error
 * and a later one merges into (a struct, a map) or replaces (a string) what is there;
 * `null` zeroes a map, slice or interface and leaves anything else as it was. The first
 * type error in document order is what Go returns. JSON.parse keeps only the last of a
 * repeated key, so it cannot see any of this (found by `cni fuzz config --against`).
 */
import { goFoldName } from "../_gojson.ts";

/** A Go type as encoding/json decodes into it; `name` is how Go's messages write it. */
export type GoType =
  | { readonly kind: "string" }
  | { readonly kind: "bool" }
  | { readonly kind: "any" }
  | { readonly kind: "map"; readonly name: string; readonly elem: GoType }
  | { readonly kind: "slice"; readonly name: string; readonly elem: GoType }
  | {
      readonly kind: "struct";
      /** The type as Go prints it, e.g. `types.IPAM`. */
      readonly name: string;
      /** The bare struct name of `Go struct field <struct>.<field>` messages. */
      readonly struct: string;
      /** JSON field names in declaration order (the order Go's folded lookup tries them). */
      readonly fields: Readonly<Record<string, GoType>>;
    };

/** One type error: where in the document (keys as spelled) and Go's message. */
export interface GoTypeError {
  readonly path: readonly (string | number)[];
  /** The JSON kind that did not fit: `number`, `string`, `bool`, `array`, `object` (or `number 1e400`). */
  readonly kind: string;
  readonly message: string;
}

/** The decoded value (`undefined`: the zero value) and every type error, Go's first first. */
export interface GoDecoded {
  readonly value: unknown;
  readonly errors: readonly GoTypeError[];
}

/** A Go slice while decoding: its backing array outlives a shorter re-decode, as in Go. */
class Slice {
  constructor(
    public backing: unknown[],
    public len: number,
  ) {}
}

interface Context {
  readonly errors: GoTypeError[];
  readonly path: readonly (string | number)[];
  readonly fields: readonly string[];
  readonly struct: string | undefined;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Decodes valid JSON `text` into `type` the way Go's encoding/json does. The text must
 * already be known to be valid JSON (JSON.parse accepted it).
 *
 * @example goDecodeInto('{"nAmE":0,"name":"a"}', T).errors[0].message // "json: cannot unmarshal number into Go struct field T.name of type string"
 */
export function goDecodeInto(text: string, type: GoType): GoDecoded {
  const errors: GoTypeError[] = [];
  const ctx: Context = { errors, path: [], fields: [], struct: undefined };
  const { value } = new Decoder(text).decode(type, skipWs(text, 0), undefined, ctx);
  return { value: finish(type, value), errors };
}

function skipWs(text: string, i: number): number {
  while (WS.has(text.charCodeAt(i))) i++;
  return i;
}

function typeName(type: GoType): string {
  if (type.kind === "any") return "interface {}";
  return type.kind === "string" || type.kind === "bool" ? type.kind : type.name;
}

/** The value of `type` JavaScript code sees for Go's zero value inside a map or slice. */
function zero(type: GoType): unknown {
  if (type.kind === "string") return "";
  if (type.kind === "bool") return false;
  return type.kind === "struct" ? new Map() : undefined;
}

const foldIndexes = new WeakMap<object, Map<string, string>>();

/** The field a struct key decodes into: exact name, else the first field that folds alike. */
function fieldOf(fields: Readonly<Record<string, GoType>>, key: string): string | undefined {
  if (Object.hasOwn(fields, key)) return key;
  let index = foldIndexes.get(fields);
  if (index === undefined) {
    index = new Map();
    for (const f of Object.keys(fields)) if (!index.has(goFoldName(f))) index.set(goFoldName(f), f);
    foldIndexes.set(fields, index);
  }
  return index.get(goFoldName(key));
}

class Decoder {
  constructor(private readonly text: string) {}

  /** Decodes the value at `i` into `current` (the field's value so far); returns its end. */
  decode(type: GoType, i: number, current: unknown, ctx: Context): { end: number; value: unknown } {
    const c = this.text[i];
    if (c === "n") {
      // null zeroes a map, slice or interface; a string, bool or struct keeps its value.
      const zeroes = type.kind === "any" || type.kind === "map" || type.kind === "slice";
      return { end: i + 4, value: zeroes ? undefined : current };
    }
    const end = this.skip(i);
    const kind =
      c === "{" ? "object" : c === "[" ? "array" : c === '"' ? "string" : c === "t" || c === "f" ? "bool" : "number";
    switch (type.kind) {
      case "any": {
        // A number beyond float64 inside is Go's error too (the value is kept, that number nil).
        let huge: string | undefined;
        const value = JSON.parse(this.text.slice(i, end), (_k, v: unknown, context?: { source?: string }) => {
          if (typeof v === "number" && !Number.isFinite(v)) {
            huge ??= context?.source ?? String(v);
            return null;
          }
          return typeof v === "string" ? v.toWellFormed() : v;
        });
        if (huge !== undefined) fail(ctx, `number ${huge}`, "float64");
        return { end, value };
      }
      case "string":
        if (kind === "string") return { end, value: (JSON.parse(this.text.slice(i, end)) as string).toWellFormed() };
        break;
      case "bool":
        if (kind === "bool") return { end, value: c === "t" };
        break;
      case "struct":
      case "map":
        if (kind === "object") return { end, value: this.object(type, i, current, ctx) };
        break;
      case "slice":
        if (kind === "array") return { end, value: this.array(type, i, current, ctx) };
        break;
    }
    fail(ctx, kind, typeName(type));
    return { end, value: current };
  }

  private object(type: GoType & { kind: "struct" | "map" }, i: number, current: unknown, ctx: Context): unknown {
    const out = current instanceof Map ? (current as Map<string, unknown>) : new Map<string, unknown>();
    const text = this.text;
    i = skipWs(text, i + 1);
    while (text[i] !== "}") {
      const keyEnd = this.skip(i);
      const key = JSON.parse(text.slice(i, keyEnd)) as string;
      const at = skipWs(text, skipWs(text, keyEnd) + 1); // past the colon
      const path = [...ctx.path, key];
      let end: number;
      if (type.kind === "map") {
        // Each value is decoded into a fresh zero element, then stored (a type error stores the zero).
        const sub = { errors: ctx.errors, path, fields: [...ctx.fields, key], struct: ctx.struct };
        const r = this.decode(type.elem, at, zero(type.elem), sub);
        out.set(key, r.value);
        end = r.end;
      } else {
        const field = fieldOf(type.fields, key);
        const ft = field === undefined ? undefined : type.fields[field];
        if (field === undefined || ft === undefined) end = this.skip(at);
        else {
          const sub = { errors: ctx.errors, path, fields: [...ctx.fields, field], struct: type.struct };
          const r = this.decode(ft, at, out.get(field), sub);
          out.set(field, r.value);
          end = r.end;
        }
      }
      i = skipWs(text, end);
      if (text[i] === ",") i = skipWs(text, i + 1);
    }
    return out;
  }

  private array(type: GoType & { kind: "slice" }, i: number, current: unknown, ctx: Context): unknown {
    const s = current instanceof Slice ? current : new Slice([], 0);
    const text = this.text;
    let n = 0;
    i = skipWs(text, i + 1);
    while (text[i] !== "]") {
      if (n >= s.backing.length) {
        // Go's growth: a new backing array holding only the first len elements.
        const cap = Math.max(4, s.backing.length + (s.backing.length >> 1));
        s.backing = [...s.backing.slice(0, s.len), ...Array.from({ length: cap - s.len }, () => zero(type.elem))];
      }
      if (n >= s.len) s.len = n + 1;
      const r = this.decode(type.elem, i, s.backing[n], { ...ctx, path: [...ctx.path, n] });
      s.backing[n] = r.value;
      n++;
      i = skipWs(text, r.end);
      if (text[i] === ",") i = skipWs(text, i + 1);
    }
    if (n === 0) return new Slice([], 0);
    s.len = Math.min(s.len, n);
    return s;
  }

  /** The end of the JSON value at `i` (strings and nesting skipped without recursion). */
  skip(i: number): number {
    const text = this.text;
    const c = text[i];
    if (c === '"') return stringEnd(text, i);
    if (c !== "{" && c !== "[") {
      let j = i + 1;
      while (j < text.length && !",]} \t\n\r".includes(text[j] as string)) j++;
      return j;
    }
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = stringEnd(text, j) - 1;
      else if (d === "{" || d === "[") depth++;
      else if ((d === "}" || d === "]") && --depth === 0) return j + 1;
    }
    return text.length;
  }
}

/** Records Go's UnmarshalTypeError: `what` (the JSON kind) cannot go into `goType` here. */
function fail(ctx: Context, what: string, goType: string): void {
  const message =
    ctx.struct === undefined
      ? `json: cannot unmarshal ${what} into Go value of type ${goType}`
      : `json: cannot unmarshal ${what} into Go struct field ${ctx.struct}.${ctx.fields.join(".")} of type ${goType}`;
  ctx.errors.push({ path: ctx.path, kind: what, message });
}

function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const d = text[j];
    if (d === "\\") j++;
    else if (d === '"') return j + 1;
  }
  return text.length;
}

/** Plain JavaScript values: structs and maps as objects, slices as arrays, zero as undefined. */
function finish(type: GoType, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (type.kind === "slice" && value instanceof Slice)
    return value.backing.slice(0, value.len).map((e) => finish(type.elem, e) ?? null);
  if ((type.kind === "struct" || type.kind === "map") && value instanceof Map) {
    const entries: [string, unknown][] = [];
    for (const [k, v] of value as Map<string, unknown>) {
      const sub = type.kind === "map" ? type.elem : type.fields[k];
      const done = sub === undefined ? v : finish(sub, v);
      if (done !== undefined || type.kind === "map") entries.push([k, done ?? null]);
    }
    // fromEntries defines own properties, so a "__proto__" key stays a plain key.
    return Object.fromEntries(entries);
  }
  return value;
}
