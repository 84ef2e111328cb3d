import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { configVersion, pluginError, rawResult } from "./decode.ts";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const failed = (stdout: string, stderr = "", failure = "exit status 1") => ({
  stdout: enc(stdout),
  stderr: enc(stderr),
  failure,
});

describe("pluginError (E-5)", () => {
  test("reads an error object without cniVersion from stdout", () => {
    const err = pluginError("/p", failed('{"code":7,"msg":"bad config","details":"no range"}'));
    expect(err).toBeInstanceOf(CniError);
    expect([err.code, err.msg, err.details]).toEqual([7, "bad config", "no range"]);
  });

  test("ignores extra keys such as cniVersion in the error object", () => {
    const err = pluginError("/p", failed('{"cniVersion":"1.1.0","code":11,"msg":"busy","extra":true}'));
    expect([err.code, err.msg, err.details]).toEqual([11, "busy", ""]);
  });

  test("reports stdout that is not JSON as a diagnostic-message failure with code 0", () => {
    const err = pluginError("/p", failed("boom"));
    expect(err.code).toBe(0);
    expect(err.msg).toBe(
      `netplugin failed but error parsing its diagnostic message "boom": invalid character 'b' looking for beginning of value`,
    );
  });

  test("reports a JSON value of the wrong shape as a diagnostic-message failure", () => {
    expect(pluginError("/p", failed("[1]")).msg).toStartWith(
      'netplugin failed but error parsing its diagnostic message "[1]": json: cannot unmarshal array',
    );
    expect(pluginError("/p", failed('{"code":"7"}')).msg).toContain(
      "cannot unmarshal string into Go struct field Error.code of type uint",
    );
  });

  test("treats a literal null on stdout as an empty error with code 0", () => {
    const err = pluginError("/p", failed("null"));
    expect([err.code, err.msg]).toEqual([0, ""]);
  });

  test("quotes stderr when stdout is empty", () => {
    const err = pluginError("/p", failed("", "cannot open netns\n"));
    expect([err.code, err.msg]).toEqual([0, 'netplugin failed: "cannot open netns\\n": exit status 1']);
  });

  test("gives the bare exit status when the plugin said nothing at all", () => {
    expect(pluginError("/p", failed("", "", "exit status 3")).msg).toBe(
      "netplugin failed with no error message: exit status 3",
    );
  });

  test("makes a timed-out run code 11, try again later", () => {
    const err = pluginError(
      "/opt/cni/bin/slow",
      { stdout: enc(""), stderr: enc(""), failure: "signal: killed", timedOut: true },
      50,
    );
    expect([err.code, err.msg, err.details]).toEqual([
      11,
      'netplugin "/opt/cni/bin/slow" timed out after 50ms',
      "signal: killed",
    ]);
  });
});

describe("rawResult (RP-2)", () => {
  const conf = enc('{"cniVersion":"0.4.0","name":"n","type":"t"}');

  test("fails on an empty stdout", () => {
    expect(() => rawResult(conf, enc(""))).toThrow("failed to unmarshal raw result: unexpected end of JSON input");
  });

  test("fails on a stdout that is not JSON", () => {
    expect(() => rawResult(conf, enc("ok"))).toThrow("failed to unmarshal raw result: invalid character 'o'");
  });

  test("makes a literal null an empty result in the config's version", () => {
    expect(rawResult(conf, enc("null"))).toEqual({ version: "0.4.0", raw: { cniVersion: "0.4.0" } });
  });

  test("keeps the result's own version even when it differs from the config's", () => {
    expect(rawResult(conf, enc('{"cniVersion":"1.0.0","ips":[]}')).version).toBe("1.0.0");
  });

  test("fills a missing or empty result version with the config's (issue #895)", () => {
    expect(rawResult(conf, enc('{"ips":[]}'))).toEqual({ version: "0.4.0", raw: { ips: [], cniVersion: "0.4.0" } });
    expect(rawResult(conf, enc('{"cniVersion":""}')).version).toBe("0.4.0");
  });

  test("takes 0.1.0 when the config has no version", () => {
    expect(configVersion(enc('{"name":"n"}'))).toBe("0.1.0");
    expect(rawResult(enc("{}"), enc("{}")).version).toBe("0.1.0");
  });
});
