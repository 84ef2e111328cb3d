/**
 * Which result format each spec version uses (RP-1): 0.1.0/0.2.0, 0.3.x/0.4.0 and 1.x.
 */
import type { Result020, Result040, Result100, ResultFamily } from "./types.ts";

/**
 * The versions each result type accepts when it parses (R02-3, R04-5, R1-1), in the
 * order Go prints them in `result type supports [...]`. The 0.2.0 type also takes "".
 */
export const FAMILY_VERSIONS: Readonly<Record<ResultFamily, readonly string[]>> = {
  "020": ["", "0.1.0", "0.2.0"],
  "040": ["0.3.0", "0.3.1", "0.4.0"],
  "100": ["1.0.0", "1.1.0"],
};

/**
 * The result format a version uses, or undefined for a version no result type parses.
 *
 * @example resultFamily("0.3.1") // "040"
 */
export function resultFamily(version: string): ResultFamily | undefined {
  for (const family of ["020", "040", "100"] as const) {
    if (FAMILY_VERSIONS[family].includes(version)) return family;
  }
  return undefined;
}

/** True when a result is in the 0.1.0/0.2.0 format (by its `cniVersion`). */
export function isResult020(result: { cniVersion: string }): result is Result020 {
  return resultFamily(result.cniVersion) === "020";
}

/** True when a result is in the 0.3.x/0.4.0 format (by its `cniVersion`). */
export function isResult040(result: { cniVersion: string }): result is Result040 {
  return resultFamily(result.cniVersion) === "040";
}

/** True when a result is in the 1.0.0/1.1.0 format (by its `cniVersion`). */
export function isResult100(result: { cniVersion: string }): result is Result100 {
  return resultFamily(result.cniVersion) === "100";
}
