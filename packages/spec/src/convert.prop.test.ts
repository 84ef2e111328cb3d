import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { anyResult, result020, result040, result100 } from "./arbitraries.ts";
import { convertResult } from "./convert.ts";
import { CniError } from "./error.ts";
import { FAMILY_VERSIONS } from "./family.ts";
import { parseResult } from "./parse.ts";
import { resultToJSON } from "./serialize.ts";
import type { Result, Result040, Result100 } from "./types.ts";
import { VERSIONS } from "./version.ts";

const RUNS = { numRuns: 10_000 };
const V020 = ["0.1.0", "0.2.0"] as const;
const V040 = ["0.3.0", "0.3.1", "0.4.0"] as const;
const V100 = ["1.0.0", "1.1.0"] as const;

/** The conversion's outcome: the result, or the error message. */
function attempt(r: Result, to: string): Result | string {
  try {
    return convertResult(r, to);
  } catch (err) {
    if (err instanceof CniError) return `error ${err.code}: ${err.msg}`;
    throw err;
  }
}

describe("conversion properties (§3.7)", () => {
  test("converting to the same version is the identity", () => {
    fc.assert(
      fc.property(anyResult, (r) => {
        expect(convertResult(r, r.cniVersion)).toEqual(r);
      }),
      RUNS,
    );
  });

  test("printing and parsing a result gives it back", () => {
    fc.assert(
      fc.property(anyResult, (r) => {
        expect(parseResult(resultToJSON(r))).toEqual(r);
      }),
      RUNS,
    );
  });

  test("within a format (0.1.0/0.2.0, 0.3.x/0.4.0, 1.x) only the label changes", () => {
    const inFamily = fc.oneof(
      fc.tuple(result020(), fc.constantFrom(...V020)),
      fc.tuple(result040(), fc.constantFrom(...V040)),
      fc.tuple(result100(), fc.constantFrom(...V100)),
    );
    fc.assert(
      fc.property(inFamily, ([r, to]) => {
        expect(convertResult(r, to)).toEqual({ ...r, cniVersion: to });
      }),
      RUNS,
    );
  });

  test("0.3.0, 0.3.1 and 0.4.0 (and 1.0.0, 1.1.0; 0.1.0, 0.2.0) convert alike to any version", () => {
    const siblings = fc.oneof(
      fc.tuple(result020() as fc.Arbitrary<Result>, fc.constantFrom(...V020), fc.constantFrom(...V020)),
      fc.tuple(result040() as fc.Arbitrary<Result>, fc.constantFrom(...V040), fc.constantFrom(...V040)),
      fc.tuple(result100() as fc.Arbitrary<Result>, fc.constantFrom(...V100), fc.constantFrom(...V100)),
    );
    fc.assert(
      fc.property(siblings, fc.constantFrom(...VERSIONS), ([r, a, b], to) => {
        expect(attempt({ ...r, cniVersion: a }, to)).toEqual(attempt({ ...r, cniVersion: b }, to));
      }),
      RUNS,
    );
  });

  test("a 0.1.0/0.2.0 result survives a trip up to any later version and back", () => {
    fc.assert(
      fc.property(result020(true), fc.constantFrom(...V040, ...V100), (r, up) => {
        expect(convertResult(convertResult(r, up), r.cniVersion)).toEqual(r);
      }),
      RUNS,
    );
  });

  test("a 0.3.x/0.4.0 result with consistent ip versions survives a trip to 1.x and back", () => {
    fc.assert(
      fc.property(result040(true), fc.constantFrom(...V100), (r, up) => {
        expect(convertResult(convertResult(r, up), r.cniVersion)).toEqual(r);
      }),
      RUNS,
    );
  });

  test("through 1.x, 0.4.0 ip versions are recomputed from the address (CV-3)", () => {
    fc.assert(
      fc.property(result040(), fc.constantFrom(...V100), (r, up) => {
        const back = convertResult(convertResult(r, up), r.cniVersion) as Result040;
        expect(back).toEqual({
          ...r,
          ...(r.ips ? { ips: r.ips.map((ip) => ({ ...ip, version: ip.address.includes(":") ? "6" : "4" })) } : {}),
        });
      }),
      RUNS,
    );
  });

  test("a 1.x result through 0.3.x/0.4.0 loses only interface mtu, socketPath and pciID (CV-3)", () => {
    fc.assert(
      fc.property(result100(), fc.constantFrom(...V040), (r, down) => {
        const back = convertResult(convertResult(r, down), r.cniVersion) as Result100;
        const expected: Result100 = {
          ...r,
          ...(r.interfaces
            ? { interfaces: r.interfaces.map(({ mtu: _m, socketPath: _s, pciID: _p, ...rest }) => rest) }
            : {}),
        };
        expect(back).toEqual(expected);
      }),
      RUNS,
    );
  });

  test("every conversion gives a canonical result of the target version or a code 1 error", () => {
    fc.assert(
      fc.property(anyResult, fc.constantFrom(...VERSIONS), (r, to) => {
        const out = attempt(r, to);
        if (typeof out === "string") {
          expect(out).toBe("error 1: cannot convert: no valid IP addresses");
          expect(FAMILY_VERSIONS["020"]).toContain(to);
          return;
        }
        expect(out.cniVersion).toBe(to);
        expect(parseResult(resultToJSON(out))).toEqual(out);
      }),
      RUNS,
    );
  });
});
