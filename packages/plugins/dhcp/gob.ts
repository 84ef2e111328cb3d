/**
 * The subset of Go's `encoding/gob` that Go's `net/rpc` needs to carry the reference
 * dhcp daemon's messages (rpc.Request/Response, skel.CmdArgs, current.Result): a stream
 * of length-prefixed messages, each a type definition (negative id, a `wireType`) or a
 * value (positive id). Structs send only their non-zero fields as (field delta, value)
 * pairs ending with 0; pointers are flattened; `net.IP` travels as a TextMarshaler (its
 * text form). The decoder is generic over the definitions the peer sends.
 */

/** A Go type as this encoder describes it. */
export type GobType =
  | { kind: "bool" | "int" | "uint" | "bytes" | "string" }
  | { kind: "struct"; name: string; fields: readonly (readonly [string, GobType])[] }
  | { kind: "slice"; name: string; elem: GobType }
  /** A type with MarshalText (net.IP): sent as its text bytes. */
  | { kind: "text"; name: string };

/** The predeclared types and their fixed ids (encoding/gob type.go). */
export const T = { bool: { kind: "bool" }, int: { kind: "int" }, uint: { kind: "uint" }, bytes: { kind: "bytes" }, string: { kind: "string" } } as const;
const BUILTIN_IDS: Readonly<Record<string, number>> = { bool: 1, int: 2, uint: 3, float: 4, bytes: 5, string: 6 };
const FIRST_USER_ID = 65;

// ---- primitives ----

function pushUint(out: number[], n: number | bigint): void {
  let v = BigInt(n);
  if (v < 128n) {
    out.push(Number(v));
    return;
  }
  const bytes: number[] = [];
  while (v > 0n) {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  }
  out.push(256 - bytes.length, ...bytes);
}

function pushInt(out: number[], n: number): void {
  const v = BigInt(n);
  pushUint(out, v < 0n ? ((-v - 1n) << 1n) | 1n : v << 1n);
}

function pushBytes(out: number[], b: Uint8Array): void {
  pushUint(out, b.length);
  for (const x of b) out.push(x);
}

/** A cursor over one message's bytes. */
class Reader {
  constructor(
    readonly b: Uint8Array,
    public at = 0,
  ) {}

  uint(): bigint {
    const first = this.b[this.at++];
    if (first === undefined) throw new Error("gob: unexpected end of message");
    if (first < 128) return BigInt(first);
    const n = 256 - first;
    if (n > 8 || this.at + n > this.b.length) throw new Error("gob: bad uint");
    let v = 0n;
    for (let i = 0; i < n; i++) v = (v << 8n) | BigInt(this.b[this.at++] as number);
    return v;
  }

  int(): number {
    const u = this.uint();
    return Number(u & 1n ? -(u >> 1n) - 1n : u >> 1n);
  }

  bytes(): Uint8Array {
    const n = Number(this.uint());
    if (this.at + n > this.b.length) throw new Error("gob: bad length");
    const out = this.b.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

// ---- encoding ----

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

function frame(msg: number[]): Uint8Array {
  const head: number[] = [];
  pushUint(head, msg.length);
  return Uint8Array.from([...head, ...msg]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
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

// ---- decoding ----

type Wire = { kind: "struct"; fields: [string, number][] } | { kind: "slice" | "array"; elem: number } | { kind: "map"; key: number; elem: number } | { kind: "marshaler" };

/** Reads values from one gob stream; feed it bytes, take decoded values out. */
export class GobDecoder {
  readonly #types = new Map<number, Wire>();
  #buf: Uint8Array = new Uint8Array(0);

  /** Appends received bytes. */
  push(b: Uint8Array): void {
    this.#buf = concat([this.#buf, b]);
  }

  /** The next complete value (type definitions are absorbed), or undefined when more bytes are needed. */
  next(): unknown {
    for (;;) {
      const r = new Reader(this.#buf);
      let len: number;
      try {
        len = Number(r.uint());
      } catch {
        return undefined;
      }
      if (r.at + len > this.#buf.length) return undefined;
      const msg = new Reader(this.#buf.subarray(r.at, r.at + len));
      this.#buf = this.#buf.slice(r.at + len);
      const id = msg.int();
      if (id < 0) {
        this.#types.set(-id, readWireType(msg));
        continue;
      }
      const w = this.#types.get(id);
      if (w?.kind !== "struct") msg.uint(); // the singleton field delta of a non-struct value
      return this.#value(id, msg);
    }
  }

  #value(id: number, r: Reader): unknown {
    switch (id) {
      case 1:
        return r.uint() !== 0n;
      case 2:
        return r.int();
      case 3:
        return Number(r.uint());
      case 4:
        return r.uint();
      case 5:
        return r.bytes();
      case 6:
        return new TextDecoder().decode(r.bytes());
    }
    const w = this.#types.get(id);
    if (w === undefined) throw new Error(`gob: unknown type id ${id}`);
    if (w.kind === "marshaler") return new TextDecoder().decode(r.bytes());
    if (w.kind === "slice" || w.kind === "array") {
      const n = Number(r.uint());
      return Array.from({ length: n }, () => this.#value(w.elem, r));
    }
    if (w.kind === "map") {
      const n = Number(r.uint());
      const m = new Map<unknown, unknown>();
      for (let i = 0; i < n; i++) m.set(this.#value(w.key, r), this.#value(w.elem, r));
      return m;
    }
    const o: Record<string, unknown> = {};
    const fields = (w as Extract<Wire, { kind: "struct" }>).fields;
    for (let field = -1; ; ) {
      const delta = Number(r.uint());
      if (delta === 0) return o;
      field += delta;
      const f = fields[field];
      if (f === undefined) throw new Error("gob: field number out of range");
      o[f[0]] = this.#value(f[1], r);
    }
  }
}

function readStruct(r: Reader, field: (i: number) => void): void {
  for (let i = -1; ; ) {
    const d = Number(r.uint());
    if (d === 0) return;
    i += d;
    field(i);
  }
}

function skipCommon(r: Reader): void {
  readStruct(r, (i) => (i === 0 ? r.bytes() : r.int()));
}

function readWireType(r: Reader): Wire {
  let out: Wire | undefined;
  readStruct(r, (which) => {
    if (which === 2) {
      const fields: [string, number][] = [];
      readStruct(r, (i) => {
        if (i === 0) return skipCommon(r);
        const n = Number(r.uint());
        for (let k = 0; k < n; k++) {
          let name = "";
          let id = 0;
          readStruct(r, (j) => (j === 0 ? (name = new TextDecoder().decode(r.bytes())) : (id = r.int())));
          fields.push([name, id]);
        }
      });
      out = { kind: "struct", fields };
    } else if (which === 0 || which === 1) {
      let elem = 0;
      readStruct(r, (i) => (i === 0 ? skipCommon(r) : i === 1 ? (elem = r.int()) : r.int()));
      out = { kind: which === 0 ? "array" : "slice", elem };
    } else if (which === 3) {
      let key = 0;
      let elem = 0;
      readStruct(r, (i) => (i === 0 ? skipCommon(r) : i === 1 ? (key = r.int()) : (elem = r.int())));
      out = { kind: "map", key, elem };
    } else {
      readStruct(r, () => skipCommon(r));
      out = { kind: "marshaler" };
    }
  });
  if (out === undefined) throw new Error("gob: empty type definition");
  return out;
}
