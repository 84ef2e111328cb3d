/**
 * The CNI spec versions and their comparison (SPEC.md §5, VN-6, VN-8).
 */
import { CniError, ErrorCode } from "./error.ts";

/** Every spec version the library knows, oldest first (VN-8 `version.All`). */
export const VERSIONS = ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"] as const;

/** One of the seven known spec versions. */
export type Version = (typeof VERSIONS)[number];

/** The library's current spec version (what the Go lib's `version.Current()` returns). */
export const CURRENT_VERSION: Version = "1.1.0";

/** The legacy versions, `["0.1.0","0.2.0"]` (VN-8 `Legacy`). */
export const LEGACY_VERSIONS: readonly Version[] = ["0.1.0", "0.2.0"];

/** A parsed version: major, minor, patch. */
export interface ParsedVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** True when `v` is one of the seven known versions. */
export function isKnownVersion(v: string): v is Version {
  return (VERSIONS as readonly string[]).includes(v);
}

/**
 * Parses a version as the Go lib's `ParseVersion` does (VN-6): `""` is 0.1.0, missing
 * minor/patch count as 0, four or more parts and non-numeric parts are errors.
 *
 * @example parseVersion("1") // { major: 1, minor: 0, patch: 0 }
 */
export function parseVersion(version: string): ParsedVersion {
  if (version === "") return { major: 0, minor: 1, patch: 0 };
  const parts = version.split(".");
  if (parts.length >= 4) {
    throw new CniError(ErrorCode.DecodingFailure, `invalid version "${version}": too many parts`);
  }
  // Go's strconv.Atoi: an optional sign then decimal digits within int64; the messages
  // name the part as Go's do (major, minor, micro) with Atoi's own error text.
  const nums = parts.map((part, i) => {
    const which = ["major", "minor", "micro"][i] ?? "micro";
    const fail = (why: string): never => {
      throw new CniError(
        ErrorCode.DecodingFailure,
        `failed to convert ${which} version part "${part}": strconv.Atoi: parsing "${part}": ${why}`,
      );
    };
    if (!/^[+-]?\d+$/.test(part)) fail("invalid syntax");
    const n = BigInt(part);
    if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) fail("value out of range");
    return Number(n);
  });
  return { major: nums[0] ?? 0, minor: nums[1] ?? 0, patch: nums[2] ?? 0 };
}

/**
 * Compares two versions numerically (VN-6); returns <0, 0 or >0. Throws a CniError
 * (code 6) when either does not parse.
 *
 * @example compareVersions("0.4.0", "1") < 0 // true
 */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  return x.major - y.major || x.minor - y.minor || x.patch - y.patch;
}

/** True when `version` parses and is at least `minimum` (the Go lib's `GreaterThanOrEqualTo`). */
export function versionAtLeast(version: string, minimum: string): boolean {
  try {
    return compareVersions(version, minimum) >= 0;
  } catch {
    return false;
  }
}

/** The known versions from `v` onward (VN-8 `VersionsStartingFrom`). */
export function versionsStartingFrom(v: Version): Version[] {
  return VERSIONS.slice(VERSIONS.indexOf(v));
}
