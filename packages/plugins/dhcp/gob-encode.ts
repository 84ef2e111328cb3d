/**
 * The gob encoder (encoding/gob encoder.go): type definitions sent once per stream,
 * inner types first, then values with zero-valued struct fields left out.
 */
import { concat, frame, pushBytes, pushInt, pushUint } from "./gob-wire.ts";

/** A Go type as this encoder describes it. */
export type GobType =
  | { kind: "bool" | "int" | "uint" | "bytes" | "string" }
  | { kind: "struct"; name: string; fields: readonly (readonly [string, GobType])[] }
  | { kind: "slice"; name: string; elem: GobType }
  /** A type with MarshalText (net.IP): sent as its text bytes. */
  | { kind: "text"; name: string };

/** The predeclared types and their fixed ids (encoding/gob type.go). */
export const T = {
  bool: { kind: "bool" },
  int: { kind: "int" },
  uint: { kind: "uint" },
  bytes: { kind: "bytes" },
  string: { kind: "string" },
} as const;
/** The fixed ids of the predeclared types. */
export const BUILTIN_IDS: Readonly<Record<string, number>> = {
  bool: 1,
  int: 2,
  uint: 3,
  float: 4,
  bytes: 5,
  string: 6,
};
/** The first id the encoder gives a type of its own. */
export const FIRST_USER_ID = 65;

/** Encodes values onto one gob stream, sending each type's definition once. */
export class GobEncoder {
  readonly #ids = new Map<GobType, number>();
  #next = FIRST_USER_ID;

  #id(t: GobType, out: Uint8Array[]): number {
    const builtin = BUILTIN_IDS[t.kind];
    if (builtin !== undefined) return builtin;
    const known = this.#ids.get(t);
    if (known !== undefined) return known;
    const id = this.#next++;
    this.#ids.set(t, id);
    // Inner types are defined first so that every id is known before it is used.
    const wire: number[] = [];
    const commonBytes = (name: string, delta: number): number[] => {
      const c: number[] = [delta];
      let last = -1;
      if (name !== "") {
        c.push(0 - last);
        last = 0;
        pushBytes(c, new TextEncoder().encode(name));
      }
      c.push(1 - last);
      pushInt(c, id);
      c.push(0);
      return c;
    };
    if (t.kind === "struct") {
      const fieldIds = t.fields.map(([, ft]) => this.#id(ft, out));
      wire.push(3, ...commonBytes(t.name, 1)); // wireType.StructT, structType.CommonType
      wire.push(1); // structType.Field
      pushUint(wire, t.fields.length);
      t.fields.forEach(([name], i) => {
        wire.push(1);
        pushBytes(wire, new TextEncoder().encode(name));
        wire.push(1);
        pushInt(wire, fieldIds[i] as number);
        wire.push(0);
      });
      wire.push(0, 0);
    } else if (t.kind === "slice") {
      const elem = this.#id(t.elem, out);
      wire.push(2, ...commonBytes(t.name, 1), 1); // wireType.SliceT, CommonType, Elem
      pushInt(wire, elem);
      wire.push(0, 0);
    } else {
      wire.push(7, ...commonBytes((t as { name: string }).name, 1), 0, 0); // wireType.TextMarshalerT
    }
    const msg: number[] = [];
    pushInt(msg, -id);
    msg.push(...wire);
    out.push(frame(msg));
    return id;
  }

  /** The messages that carry `value` as type `t` (definitions first when new). */
  encode(t: GobType, value: unknown): Uint8Array {
    const out: Uint8Array[] = [];
    const id = this.#id(t, out);
    const msg: number[] = [];
    pushInt(msg, id);
    if (t.kind !== "struct") msg.push(0); // a top-level non-struct value is a singleton field
    encodeValue(msg, t, value);
    out.push(frame(msg));
    return concat(out);
  }
}

function isZero(t: GobType, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (t.kind === "string" || t.kind === "text") return v === "";
  if (t.kind === "int" || t.kind === "uint") return v === 0;
  if (t.kind === "bool") return v === false;
  if (t.kind === "bytes") return (v as Uint8Array).length === 0;
  if (t.kind === "slice") return (v as unknown[]).length === 0;
  return false; // a struct field that is present is sent even when empty (gob sends non-nil pointers)
}

function encodeValue(out: number[], t: GobType, v: unknown): void {
  switch (t.kind) {
    case "bool":
      out.push(v === true ? 1 : 0);
      return;
    case "int":
      pushInt(out, v as number);
      return;
    case "uint":
      pushUint(out, v as number);
      return;
    case "string":
    case "text":
      pushBytes(out, new TextEncoder().encode(v as string));
      return;
    case "bytes":
      pushBytes(out, v as Uint8Array);
      return;
    case "slice":
      pushUint(out, (v as unknown[]).length);
      for (const e of v as unknown[]) encodeValue(out, t.elem, e);
      return;
    case "struct": {
      let last = -1;
      const o = v as Record<string, unknown>;
      t.fields.forEach(([name, ft], i) => {
        if (isZero(ft, o[name])) return;
        out.push(i - last);
        last = i;
        encodeValue(out, ft, o[name]);
      });
      out.push(0);
    }
  }
}
