import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { parseVrfConfig } from "./config.ts";

const base = { cniVersion: "1.0.0", name: "n", type: "vrf" };
function failure(f: () => unknown): CniError {
  try {
    f();
  } catch (e) {
    return e as CniError;
  }
  throw new Error("expected a failure");
}

describe("vrf's config", () => {
  test("vrfname and table are read; table 0 or absent means pick one", () => {
    expect(parseVrfConfig({ ...base, vrfname: "vrf0", table: 7 })).toMatchObject({
      vrfName: "vrf0",
      table: 7,
      prevResult: undefined,
    });
    expect(parseVrfConfig({ ...base, vrfname: "vrf0" }).table).toBe(0);
  });

  test("a missing or empty vrfname is refused with the reference's message, code 7", () => {
    for (const c of [base, { ...base, vrfname: "" }, { ...base, vrfname: null }]) {
      const e = failure(() => parseVrfConfig(c));
      expect([e.code, e.msg]).toEqual([7, "configuration is expected to have a valid vrf name"]);
    }
  });

  test("a table that is not a uint32 is Go's unmarshal error", () => {
    expect(failure(() => parseVrfConfig({ ...base, vrfname: "v", table: -1 })).msg).toBe(
      "failed to load netconf: json: cannot unmarshal number -1 into Go struct field VRFNetConf.table of type uint32",
    );
    expect(failure(() => parseVrfConfig({ ...base, vrfname: "v", table: "1" })).msg).toBe(
      "failed to load netconf: json: cannot unmarshal string into Go struct field VRFNetConf.table of type uint32",
    );
    expect(failure(() => parseVrfConfig({ ...base, vrfname: 5 })).msg).toBe(
      "failed to load netconf: json: cannot unmarshal number into Go struct field VRFNetConf.vrfname of type string",
    );
  });
});
