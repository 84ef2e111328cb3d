/**
 * Result conversion between every pair of the seven spec versions (SPEC.md §3.7), as a
 * static table keyed by result-format pair (no registration at import time).
 */
import { isJsonObject, jsonKind } from "./_gojson.ts";
import {
  from020To040,
  from040To020,
  from040To100,
  from100To040,
  relabel020,
  relabel040,
  relabel100,
} from "./_converters.ts";
import { CniError, ErrorCode } from "./error.ts";
import { resultFamily } from "./family.ts";
import { createResult } from "./parse.ts";
import type { Result, Result020, Result040, Result100, ResultFamily } from "./types.ts";

type Converter = (from: Result, to: string) => Result;

// The casts are safe: `convertResult` validates `from` against its family's schema first.
const CONVERTERS: Readonly<Record<ResultFamily, Readonly<Record<ResultFamily, Converter>>>> = {
  "020": {
    "020": (r, to) => relabel020(r as Result020, to),
    "040": (r, to) => from020To040(r as Result020, to),
    // types100 `convertFrom02x`: through 0.4.0 first.
    "100": (r, to) => from040To100(from020To040(r as Result020, "0.4.0"), to),
  },
  "040": {
    "020": (r, to) => from040To020(r as Result040, to),
    "040": (r, to) => relabel040(r as Result040, to),
    "100": (r, to) => from040To100(r as Result040, to),
  },
  "100": {
    // types100 `convertTo02x`: through 0.4.0 first.
    "020": (r, to) => from040To020(from100To040(r as Result100, "0.4.0"), to),
    "040": (r, to) => from100To040(r as Result100, to),
    "100": (r, to) => relabel100(r as Result100, to),
  },
};

/**
 * Converts a result to another spec version (§3.7). `""` means 0.1.0; the same version
 * gives the (validated) result back; a version outside the seven fails with code 1
 * `no converter for CNI result version X to Y`, and a result that cannot be expressed at
 * 0.1.0/0.2.0 with code 1 `cannot convert: no valid IP addresses`. A malformed result
 * fails with code 6. A result whose `cniVersion` is "" is read as 0.1.0 (RP-1).
 *
 * @example convertResult(parseResult(stdout), "0.2.0")
 */
export function convertResult(result: Result, toVersion: string): Result {
  const input: unknown = result;
  if (!isJsonObject(input)) {
    throw new CniError(ErrorCode.DecodingFailure, `invalid result: cannot unmarshal ${jsonKind(input)} into result`);
  }
  const own = input.cniVersion ?? "";
  if (typeof own !== "string") {
    throw new CniError(
      ErrorCode.DecodingFailure,
      `invalid result: cniVersion: cannot unmarshal ${jsonKind(own)} into string`,
    );
  }
  const from = own === "" ? "0.1.0" : own;
  const to = toVersion === "" ? "0.1.0" : toVersion;
  const fromFamily = resultFamily(from);
  const toFamily = resultFamily(to);
  if (fromFamily === undefined || (from !== to && toFamily === undefined)) {
    throw new CniError(ErrorCode.IncompatibleCNIVersion, `no converter for CNI result version ${from} to ${to}`);
  }
  const valid = createResult(from, input);
  if (from === to || toFamily === undefined) return valid;
  return CONVERTERS[fromFamily][toFamily](valid, to);
}
