import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { anyResult } from "./arbitraries.ts";
import { convertResult } from "./convert.ts";
import { CniError, ErrorCode } from "./error.ts";
import { resultFamily } from "./family.ts";
import { parseResult } from "./parse.ts";
import { resultToJSON, resultToWire } from "./serialize.ts";
import type { Result } from "./types.ts";
import { VERSIONS } from "./version.ts";

const RUNS = { numRuns: 10_000 };

/** Runs `fn`: it must return a printable typed result or throw a CniError with code 1 or 6. */
function typedOrCniError(fn: () => Result): void {
  let result: Result;
  try {
    result = fn();
  } catch (err) {
    if (!(err instanceof CniError)) throw err;
    expect([ErrorCode.IncompatibleCNIVersion, ErrorCode.DecodingFailure] as number[]).toContain(err.code);
    return;
  }
  expect(resultFamily(result.cniVersion)).toBeDefined();
  expect(typeof resultToJSON(result)).toBe("string");
}

/** A valid result's wire form with one nested value replaced by arbitrary JSON. */
const mutatedResult = fc
  .tuple(anyResult, fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }))
  .map(([r, path, replacement]) => {
    const root: unknown = structuredClone(resultToWire(r));
    let node = root;
    for (const [i, step] of path.entries()) {
      const last = i === path.length - 1;
      if (Array.isArray(node) && node.length > 0) {
        const k = step % node.length;
        if (last) node[k] = replacement;
        else node = node[k];
      } else if (node !== null && typeof node === "object") {
        const keys = Object.keys(node);
        const k = keys[step % Math.max(keys.length, 1)] ?? "cniVersion";
        if (last) (node as Record<string, unknown>)[k] = replacement;
        else node = (node as Record<string, unknown>)[k];
      } else break;
    }
    return root;
  });

const version = fc.oneof(fc.constantFrom(...VERSIONS, "", "0.5.0", "1.2.0"), fc.string({ maxLength: 6 }));

describe("parseResult and convertResult never fail with anything but a CniError 1 or 6", () => {
  test("parseResult on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => typedOrCniError(() => parseResult(value))),
      RUNS,
    );
  });

  test("parseResult on arbitrary strings and on JSON text of arbitrary values", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json()), (text) =>
        typedOrCniError(() => parseResult(text)),
      ),
      RUNS,
    );
  });

  test("parseResult on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => typedOrCniError(() => parseResult(bytes))),
      RUNS,
    );
  });

  test("parseResult on arbitrary JavaScript values, with or without a config version", () => {
    fc.assert(
      fc.property(fc.anything(), fc.option(version, { nil: undefined }), (value, configVersion) =>
        typedOrCniError(() => parseResult(value, configVersion)),
      ),
      RUNS,
    );
  });

  test("parseResult on valid results with one field replaced by arbitrary JSON", () => {
    fc.assert(
      fc.property(mutatedResult, fc.option(version, { nil: undefined }), (value, configVersion) => {
        typedOrCniError(() => parseResult(value, configVersion));
        typedOrCniError(() => parseResult(JSON.stringify(value), configVersion));
      }),
      RUNS,
    );
  });

  test("convertResult on arbitrary values and versions", () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), mutatedResult), version, (value, to) =>
        typedOrCniError(() => convertResult(value as Result, to)),
      ),
      RUNS,
    );
  });

  test("convertResult on arbitrary objects that claim a known version", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("ips", "ip4", "ip6", "routes", "interfaces", "dns", "x"),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        fc.constantFrom(...VERSIONS),
        version,
        (obj, from, to) => typedOrCniError(() => convertResult({ ...obj, cniVersion: from } as unknown as Result, to)),
      ),
      RUNS,
    );
  });
});
