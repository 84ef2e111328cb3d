import { describe, expect, test } from "bun:test";
import { CniError, ErrorCode } from "./error.ts";

describe("CniError", () => {
  test("the well-known codes have the spec's numbers (§4.2)", () => {
    expect(ErrorCode).toEqual({
      Unknown: 0,
      IncompatibleCNIVersion: 1,
      UnsupportedField: 2,
      UnknownContainer: 3,
      InvalidEnvironmentVariables: 4,
      IOFailure: 5,
      DecodingFailure: 6,
      InvalidNetworkConfig: 7,
      InvalidNetNS: 8,
      TryAgainLater: 11,
      PluginNotAvailable: 50,
      LimitedConnectivity: 51,
      Internal: 999,
    });
  });

  test("the wire form omits details when they are empty (E-2)", () => {
    expect(new CniError(7, "missing network name").toWire()).toEqual({ code: 7, msg: "missing network name" });
    expect(JSON.stringify(new CniError(7, "x").toWire())).toBe('{"code":7,"msg":"x"}');
  });

  test("the wire form carries details and, when given, the protocol version (E-1)", () => {
    expect(new CniError(7, "Invalid Configuration", "too small").toWire("1.1.0")).toEqual({
      cniVersion: "1.1.0",
      code: 7,
      msg: "Invalid Configuration",
      details: "too small",
    });
    expect(new CniError(7, "x").toWire("")).toEqual({ code: 7, msg: "x" });
  });

  test("the string form is msg alone, or msg; details (E-3)", () => {
    expect(String(new CniError(4, "missing CNI_NETNS"))).toBe("missing CNI_NETNS");
    expect(new CniError(1, "incompatible CNI versions", 'config is "9.9.9"').toString()).toBe(
      'incompatible CNI versions; config is "9.9.9"',
    );
    expect(new CniError(1, "a", "b").message).toBe("a; b");
  });

  test("CniError.from keeps a CniError and wraps anything else as code 999", () => {
    const e = new CniError(3, "gone");
    expect(CniError.from(e)).toBe(e);
    expect(CniError.from(new Error("boom")).toWire()).toEqual({ code: 999, msg: "boom" });
    expect(CniError.from("text").code).toBe(ErrorCode.Internal);
  });
});
