/**
 * What the framework prints: the ADD result converted to the config's version, and the
 * error object, both as the Go library writes JSON (4-space indent, no newline, R-3).
 */
import { convertResult, goJSON, resultToJSON } from "@tscni/spec";
import type { Result } from "@tscni/spec";

/**
 * The text of an ADD result converted to `cniVersion` (ADD-2, §3.7). Throws a CniError
 * when the result cannot be expressed there (e.g. 0.2.0 without any IP).
 *
 * @example io.stdout(printResult(result, a.config.cniVersion))
 */
export function printResult(result: Result, cniVersion: string): string {
  return resultToJSON(convertResult(result, cniVersion));
}

/** The text of any other wire object (the error object, E-2), Go-style. */
export function printJson(value: unknown): string {
  return goJSON(value);
}
