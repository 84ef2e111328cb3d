/**
 * Hostile JSON for fuzzing (issue 15): values of every type, extreme numbers, deep
 * nesting, huge strings, lone surrogates, duplicate and `__proto__` keys. A document is
 * generated as text, so what JSON.stringify cannot say (duplicate keys) is said too.
 */
import fc from "fast-check";

/** Numbers a parser must not choke on: extremes, negative zero, non-integers, exponents. */
export const hostileNumber: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom(
    "0",
    "-0",
    "1e400",
    "-1e400",
    "1e-400",
    "9007199254740993",
    "4294967296",
    "65536",
    "-1",
    "1.5",
    "1E2",
    "0.0000001",
  ),
);

/** Strings: short ASCII, any Unicode, lone surrogates, control characters, very long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 6 },
  { arbitrary: fc.string({ maxLength: 8, unit: "binary" }), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      "\ud800",
      "a\udfff",
      "\u0000",
      "../../etc/passwd",
      "eth0\n",
      "__proto__",
      "constructor",
      " ",
    ),
    weight: 2,
  },
  // Long strings: mostly up to a few kB, one in forty up to 200 kB. Every huge one costs its
  // parse in each parser, so at one in eleven strings they were 80% of the config target's time.
  {
    arbitrary: fc
      .oneof({ arbitrary: fc.nat(4096), weight: 39 }, { arbitrary: fc.integer({ min: 4097, max: 200_000 }), weight: 1 })
      .map((n) => "x".repeat(n)),
    weight: 1,
  },
);

/** A JSON string literal of any string (lone surrogates escaped as JSON allows). */
export const quote = (s: string): string => JSON.stringify(s);

/** JSON text of a value built from `leaf`s, objects (maybe with duplicate keys) and arrays. */
export function jsonText(leaf: fc.Arbitrary<string>, keys: fc.Arbitrary<string>, depth = 4): fc.Arbitrary<string> {
  const { node } = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", maxDepth: depth },
      leaf,
      fc.array(tie("node"), { maxLength: 4 }).map((xs) => `[${xs.join(",")}]`),
      fc
        .array(fc.tuple(keys, tie("node")), { maxLength: 5 })
        .map((kv) => `{${kv.map(([k, v]) => `${quote(k)}:${v}`).join(",")}}`),
    ),
  }));
  return node;
}

/** A leaf of any JSON type. */
export const anyLeaf: fc.Arbitrary<string> = fc.oneof(
  hostileNumber,
  hostileString.map(quote),
  fc.constantFrom("true", "false", "null"),
);

/** JSON nested far deeper than any config: `[[[...]]]` or `{"a":{"a":...}}`. */
export const deepNesting: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([n, arrays]) => (arrays ? `${"[".repeat(n)}${"]".repeat(n)}` : `${'{"a":'.repeat(n)}1${"}".repeat(n)}`));
