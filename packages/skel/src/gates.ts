/**
 * Version gates of the dispatcher (SPEC.md §1.11 step 5): the exact-match check every
 * command with a config goes through (VN-4), and the minimum config version of CHECK
 * (CHK-9, CHK-10), GC (GC-10) and STATUS (ST-6).
 */
import { CniError, ErrorCode, compareVersions } from "@tscni/spec";

/** The first spec version of each command that has one. */
export const COMMAND_MIN_VERSION: Readonly<Record<string, string>> = { CHECK: "0.4.0", GC: "1.1.0", STATUS: "1.1.0" };

/** Go's `%q` of a string (close enough to strconv.Quote for version strings). */
function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * Code 1 `incompatible CNI versions` unless `configVersion` is exactly one of `supported`
 * (string equality, not semver: VN-4).
 *
 * @example checkExactVersion("1.0", ["1.0.0"])?.details // 'config is "1.0", plugin supports ["1.0.0"]'
 */
export function checkExactVersion(configVersion: string, supported: readonly string[]): CniError | undefined {
  if (supported.includes(configVersion)) return undefined;
  return new CniError(
    ErrorCode.IncompatibleCNIVersion,
    "incompatible CNI versions",
    `config is ${quote(configVersion)}, plugin supports [${supported.map(quote).join(" ")}]`,
  );
}

/** `a >= b`, with an unparsable version as code 6 (Go's GreaterThanOrEqualTo). */
function atLeast(a: string, b: string): boolean | CniError {
  try {
    return compareVersions(a, b) >= 0;
  } catch (err) {
    return new CniError(ErrorCode.DecodingFailure, err instanceof CniError ? err.msg : String(err));
  }
}

/**
 * The extra gate of CHECK, GC and STATUS: the config version must reach the command's
 * first version (`config version does not allow X`) and some supported version must be
 * at least the config version (`plugin version does not allow X`), both code 1.
 *
 * @example commandGate("CHECK", "0.3.1", ["0.3.1", "0.4.0"])?.msg // "config version does not allow CHECK"
 */
export function commandGate(
  command: string,
  configVersion: string,
  supported: readonly string[],
): CniError | undefined {
  const min = COMMAND_MIN_VERSION[command];
  if (min === undefined) return undefined;
  const enough = atLeast(configVersion, min);
  if (enough instanceof CniError) return enough;
  if (!enough) return new CniError(ErrorCode.IncompatibleCNIVersion, `config version does not allow ${command}`);
  for (const pluginVersion of supported) {
    const ok = atLeast(pluginVersion, configVersion);
    if (ok instanceof CniError) return ok;
    if (ok) return undefined;
  }
  return new CniError(ErrorCode.IncompatibleCNIVersion, `plugin version does not allow ${command}`);
}
