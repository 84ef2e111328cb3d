/**
 * Byte-level mutations of a corpus (issue 15): bit flips, inserted, deleted and
 * overwritten bytes, truncation, splices of two inputs, invalid UTF-8.
 */
import fc from "fast-check";

/** One mutation, applied to bytes; positions are taken modulo the length. */
export type Mutation =
  | { kind: "flip"; at: number; bit: number }
  | { kind: "insert"; at: number; bytes: Uint8Array }
  | { kind: "delete"; at: number; count: number }
  | { kind: "truncate"; at: number }
  | { kind: "splice"; at: number; other: Uint8Array };

const INTERESTING = [0x00, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x2c, 0x80, 0xc0, 0xed, 0xf4, 0xff];

/** A mutation with its bytes drawn from JSON punctuation and UTF-8 edge bytes. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    bytes: fc
      .uint8Array({ minLength: 1, maxLength: 4 })
      .map((b) => b.map((x) => INTERESTING[x % INTERESTING.length] ?? x)),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), count: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("splice" as const), at: fc.nat(), other: fc.uint8Array({ maxLength: 16 }) }),
);

/** `input` with one mutation applied. */
export function mutate(input: Uint8Array, m: Mutation): Uint8Array {
  const n = input.length;
  const at = n === 0 ? 0 : m.at % (n + 1);
  switch (m.kind) {
    case "flip": {
      if (n === 0) return input;
      const out = input.slice();
      const i = at % n;
      out[i] = (out[i] ?? 0) ^ (1 << m.bit);
      return out;
    }
    // Concatenated with set(), not spread: a spread of a 200 kB document cost ~1 ms a case.
    case "insert":
      return concat(input.subarray(0, at), m.bytes, input.subarray(at));
    case "delete":
      return concat(input.subarray(0, at), input.subarray(at + m.count));
    case "truncate":
      return input.slice(0, at);
    case "splice":
      return concat(input.subarray(0, at), m.other);
  }
}

function concat(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Bytes of a document from `docs`: half as they are, half with one to three mutations. */
export function mutatedBytes(docs: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> {
  return (
    fc
      // Half the documents go unmutated: three quarters mutated left most of them broken JSON,
      // so a plugin's own checks (past the JSON decoding) saw too few of them.
      .tuple(docs, fc.oneof(fc.constant([]), fc.array(mutation, { minLength: 1, maxLength: 3 })))
      .map(([doc, ms]) => ms.reduce(mutate, new TextEncoder().encode(doc)))
  );
}
