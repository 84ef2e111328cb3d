import { describe, expect, test } from "bun:test";
import { CniError, ErrorCode } from "./error.ts";
import {
  compareVersions,
  isKnownVersion,
  parseVersion,
  versionAtLeast,
  versionsStartingFrom,
  VERSIONS,
} from "./version.ts";

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof CniError ? err.code : -1;
  }
  return undefined;
}

describe("parseVersion (VN-6)", () => {
  test("an empty version is 0.1.0", () => {
    expect(parseVersion("")).toEqual({ major: 0, minor: 1, patch: 0 });
  });

  test("missing minor and patch parts count as 0", () => {
    expect(parseVersion("1")).toEqual({ major: 1, minor: 0, patch: 0 });
    expect(parseVersion("0.4")).toEqual({ major: 0, minor: 4, patch: 0 });
  });

  test("a pre-release suffix is an error", () => {
    expect(codeOf(() => parseVersion("1.0.0-rc1"))).toBe(ErrorCode.DecodingFailure);
  });

  test("four or more parts are an error naming too many parts", () => {
    expect(() => parseVersion("1.2.3.4")).toThrow('invalid version "1.2.3.4": too many parts');
  });

  test("a bad part is named as Go names it, with strconv.Atoi's error", () => {
    expect(() => parseVersion("x.y")).toThrow(
      'failed to convert major version part "x": strconv.Atoi: parsing "x": invalid syntax',
    );
    expect(() => parseVersion("1.0.0-rc1")).toThrow(
      'failed to convert micro version part "0-rc1": strconv.Atoi: parsing "0-rc1": invalid syntax',
    );
    expect(() => parseVersion("1.99999999999999999999")).toThrow(
      'failed to convert minor version part "99999999999999999999": strconv.Atoi: parsing "99999999999999999999": value out of range',
    );
  });

  test("non-numeric and empty parts are errors", () => {
    for (const bad of ["a", "1.x", "1..0", "1.0.", "v1.0.0", " 1"]) {
      expect(codeOf(() => parseVersion(bad))).toBe(ErrorCode.DecodingFailure);
    }
  });
});

describe("compareVersions and friends", () => {
  test("compareVersions orders numerically, not as text", () => {
    expect(compareVersions("0.10.0", "0.9.0")).toBeGreaterThan(0);
    expect(compareVersions("0.4.0", "1")).toBeLessThan(0);
    expect(compareVersions("1", "1.0.0")).toBe(0);
    expect(compareVersions("", "0.1.0")).toBe(0);
  });

  test("compareVersions throws a CniError when a version does not parse", () => {
    expect(codeOf(() => compareVersions("1.0.0-rc1", "1.0.0"))).toBe(ErrorCode.DecodingFailure);
  });

  test("versionAtLeast is false for unparsable versions", () => {
    expect(versionAtLeast("0.4.0", "0.4.0")).toBe(true);
    expect(versionAtLeast("0.3.1", "0.4.0")).toBe(false);
    expect(versionAtLeast("garbage", "0.1.0")).toBe(false);
  });

  test("the seven known versions are ordered and versionsStartingFrom takes their tail (VN-8)", () => {
    expect(VERSIONS).toEqual(["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"]);
    for (let i = 1; i < VERSIONS.length; i++)
      expect(compareVersions(VERSIONS[i - 1] ?? "", VERSIONS[i] ?? "")).toBeLessThan(0);
    expect(versionsStartingFrom("1.0.0")).toEqual(["1.0.0", "1.1.0"]);
    expect(isKnownVersion("0.3.1")).toBe(true);
    expect(isKnownVersion("1.2.0")).toBe(false);
  });
});
