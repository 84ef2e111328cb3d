import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decodeConfig } from "./config.ts";
import { goJsonSyntaxError } from "@tscni/spec/go";
import { configDocument, mutatedBytes } from "@tscni/fuzz";

/** JSON texts, and JSON texts with one character inserted, dropped or replaced. */
const inputs = fc.oneof(
  fc.json(),
  fc.string(),
  fc
    .tuple(
      fc.json(),
      fc.nat(),
      fc.constantFrom("", "{", "}", "[", "]", '"', ",", ":", "x", " ", "\u0000", "\ufeff", "\\", "-", "0", "e"),
    )
    .map(([json, at, c]) => {
      const i = at % (json.length + 1);
      return json.slice(0, i) + c + json.slice(i + (at % 2));
    }),
);

describe("decodeConfig", () => {
  test("fails with Go's scanner message exactly when the input is not JSON, though it scans only what JSON.parse refused", () => {
    fc.assert(
      fc.property(inputs, (text) => {
        const bytes = new TextEncoder().encode(text);
        const syntax = goJsonSyntaxError(bytes);
        const got = decodeConfig(bytes);
        const message = got instanceof Error ? got.message : undefined;
        if (syntax !== undefined) expect(message).toBe(`error unmarshall network config: ${syntax}`);
        else expect(message ?? "").not.toContain("invalid character");
      }),
      { numRuns: 3000 },
    );
  });

  test("agrees with Go's scanner on the fuzz library's configs: valid, hostile and byte-mutated (invalid UTF-8 too)", () => {
    fc.assert(
      // Only a syntax error names an "invalid character" right after the prefix: a valid
      // document can still fail on "invalid characters found in network name".
      fc.property(mutatedBytes(configDocument), (bytes) => {
        const syntax = goJsonSyntaxError(bytes);
        const got = decodeConfig(bytes);
        const message = got instanceof Error ? got.message : undefined;
        if (syntax !== undefined) expect(message).toBe(`error unmarshall network config: ${syntax}`);
        else expect(message ?? "").not.toMatch(/^error unmarshall network config: invalid character/);
      }),
      { numRuns: 1000 },
    );
  });
});
