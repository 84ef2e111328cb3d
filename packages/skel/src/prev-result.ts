/**
 * `version.ParsePrevResult` (SPEC.md §3.8): a chained plugin's prevResult, parsed with
 * the parser of the config's version and converted to the current version.
 */
import { CURRENT_VERSION, CniError, convertResult, createResult } from "@tscni/spec";
import type { Result100 } from "@tscni/spec";

// The cause's code is kept: 6 for a result that does not decode, 1 for a version clash.
// v1.1.1 (Debian) differs: code 999 (Go's ParsePrevResult returns plain errors); SPEC §4.2 gives code 6 (decoding failure)
const rewrap = (err: unknown, prefix: string): CniError => {
  const e = CniError.from(err);
  return new CniError(e.code, `${prefix}: ${e.msg}`, e.details);
};

/**
 * The config's prevResult as a 1.1.0 result, or undefined when there is none (PR-1).
 * It is parsed with the config version's parser, so its own `cniVersion` must be of
 * that family; without one it is read at the config version (PR-2). Plugins work on the
 * 1.1.0 form and the framework prints it back in the config version (PR-3).
 * Throws a CniError `could not parse prevResult: ...` (code 6, or 1 for a version clash).
 *
 * @example parsePrevResult(a.config)?.interfaces
 */
export function parsePrevResult(config: { cniVersion: string; prevResult?: unknown }): Result100 | undefined {
  const raw = config.prevResult;
  if (raw === undefined || raw === null) return undefined;
  const withVersion =
    typeof raw === "object" && !Array.isArray(raw) && !Object.hasOwn(raw, "cniVersion")
      ? { ...raw, cniVersion: config.cniVersion }
      : raw;
  let parsed;
  try {
    parsed = createResult(config.cniVersion, withVersion);
  } catch (err) {
    throw rewrap(err, "could not parse prevResult");
  }
  try {
    return convertResult(parsed, CURRENT_VERSION) as Result100;
  } catch (err) {
    throw rewrap(err, "could not convert result to current version");
  }
}
