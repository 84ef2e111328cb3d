import { describe, expect, test } from "bun:test";
import { CniError } from "../error.ts";
import { parseCniArgs } from "./load-args.ts";

/** The CniError a call throws (fails the test when it throws something else or nothing). */
function errorOf(f: () => unknown): CniError {
  try {
    f();
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error("expected a CniError");
}

describe("parseCniArgs (CA-3)", () => {
  test("an empty string means no arguments", () => {
    expect(parseCniArgs("", ["IP"])).toEqual({});
  });

  test("pairs split on ';' and '=' give the values of known keys", () => {
    expect(parseCniArgs("IP=198.18.0.9;MAC=c2:11:22:33:44:55", ["IP", "MAC"])).toEqual({
      IP: "198.18.0.9",
      MAC: "c2:11:22:33:44:55",
    });
  });

  test("a pair with two '=' is an invalid pair", () => {
    const e = errorOf(() => parseCniArgs("A=b=c", ["A"]));
    expect(e.msg).toBe('ARGS: invalid pair "A=b=c"');
    // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 4 (invalid environment variables)
    expect(e.code).toBe(4);
  });

  test("a bare key without '=' is an invalid pair", () => {
    expect(errorOf(() => parseCniArgs("IP", ["IP"])).msg).toBe('ARGS: invalid pair "IP"');
  });

  test("a trailing ';' gives an empty piece, which is an invalid pair", () => {
    expect(errorOf(() => parseCniArgs("IP=198.18.0.9;", ["IP"])).msg).toBe('ARGS: invalid pair ""');
  });

  test("keys are matched case-sensitively", () => {
    expect(errorOf(() => parseCniArgs("ip=198.18.0.9", ["IP"])).msg).toBe('ARGS: unknown args ["ip=198.18.0.9"]');
  });

  test("unknown keys are all reported together after parsing", () => {
    expect(errorOf(() => parseCniArgs("A=1;IP=198.18.0.9;B=2", ["IP"])).msg).toBe('ARGS: unknown args ["A=1" "B=2"]');
  });

  test("IgnoreUnknown=1 accepts unknown keys wherever it appears", () => {
    expect(parseCniArgs("K8S_POD_NAME=web;IP=198.18.0.9;IgnoreUnknown=1", ["IP"])).toEqual({
      IP: "198.18.0.9",
      IgnoreUnknown: "1",
    });
    expect(parseCniArgs("IgnoreUnknown=1;K8S_POD_NAME=web", [])).toEqual({ IgnoreUnknown: "1" });
  });

  test("IgnoreUnknown accepts 1, true, 0, false in any letter case", () => {
    for (const v of ["1", "true", "TRUE", "True"])
      expect(parseCniArgs(`IgnoreUnknown=${v};X=y`, [])).toEqual({ IgnoreUnknown: v });
    for (const v of ["0", "false", "FaLsE"]) {
      expect(errorOf(() => parseCniArgs(`IgnoreUnknown=${v};X=y`, [])).msg).toBe('ARGS: unknown args ["X=y"]');
    }
  });

  test("IgnoreUnknown with another value fails with the boolean unmarshal error", () => {
    const e = errorOf(() => parseCniArgs("IgnoreUnknown=Yes", []));
    expect(e.msg).toBe(
      'ARGS: error parsing value of pair "IgnoreUnknown=Yes": boolean unmarshal error: invalid input yes',
    );
  });

  test("the last value of a repeated key wins", () => {
    expect(parseCniArgs("IP=198.18.0.1;IP=198.18.0.2", ["IP"])).toEqual({ IP: "198.18.0.2" });
  });

  test("Kubernetes runtime args parse with IgnoreUnknown (CA-5)", () => {
    const s = "IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-0;K8S_POD_INFRA_CONTAINER_ID=abc";
    expect(parseCniArgs(s, ["K8S_POD_NAME"])).toEqual({ IgnoreUnknown: "1", K8S_POD_NAME: "web-0" });
  });
});
