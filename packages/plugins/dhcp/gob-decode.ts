/**
 * The gob decoder (encoding/gob decoder.go), generic over the type definitions the peer
 * sends: structs become objects keyed by field name, slices arrays, byte strings
 * Uint8Arrays; marshaler types are read as their text.
 */
import { Reader, concat } from "./gob-wire.ts";

type Wire =
  | { kind: "struct"; fields: [string, number][] }
  | { kind: "slice" | "array"; elem: number }
  | { kind: "map"; key: number; elem: number }
  | { kind: "marshaler" };

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
