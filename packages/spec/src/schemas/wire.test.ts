import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { describeIssues } from "./_go.ts";
import { ErrorSchema, VersionInfoSchema } from "./wire.ts";

function failure(schema: v.GenericSchema, input: unknown): string {
  const r = v.safeParse(schema, input);
  return r.success ? "ok" : describeIssues(r.issues);
}

describe("ErrorSchema (§4.1)", () => {
  test("the spec's error example parses", () => {
    const example = {
      cniVersion: "1.1.0",
      code: 7,
      msg: "Invalid Configuration",
      details: "Network 192.168.0.0/31 too small to allocate from.",
    };
    expect(v.parse(ErrorSchema, example)).toEqual(example);
  });

  test("an error without cniVersion and details parses, extra keys ignored (E-2, E-5)", () => {
    expect(v.parse(ErrorSchema, { code: 3, msg: "gone", other: true })).toEqual({ code: 3, msg: "gone" });
  });

  test("a negative or fractional code is rejected, as Go's uint is", () => {
    expect(failure(ErrorSchema, { code: -1, msg: "x" })).toBe("code: cannot unmarshal number -1 into uint");
    expect(failure(ErrorSchema, { code: "7", msg: "x" })).toBe("code: cannot unmarshal string into uint");
  });
});

describe("VersionInfoSchema (VER-6)", () => {
  test("a full reply parses", () => {
    expect(v.parse(VersionInfoSchema, { cniVersion: "1.1.0", supportedVersions: ["0.4.0", "1.0.0"] })).toEqual({
      cniVersion: "1.1.0",
      supportedVersions: ["0.4.0", "1.0.0"],
    });
  });

  test("a missing cniVersion is an error", () => {
    expect(failure(VersionInfoSchema, { supportedVersions: ["1.0.0"] })).toBe("missing field cniVersion");
  });

  test("missing supportedVersions is an error except for a 0.2.0 reply", () => {
    expect(failure(VersionInfoSchema, { cniVersion: "1.0.0", supportedVersions: [] })).toBe(
      "missing field supportedVersions",
    );
    expect(v.parse(VersionInfoSchema, { cniVersion: "0.2.0" }).supportedVersions).toEqual(["0.1.0", "0.2.0"]);
  });
});
