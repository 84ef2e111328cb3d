/**
 * The reference plugins decode stdin with Go's encoding/json, which matches a key in any
 * letter case to its field; ours fold keys onto their schemas first (foldToSchema), so
 * `{"Bridge":"br9"}` is the bridge br9 here too (scripts/compat/plugins-folded-keys
 * checks the errors against the reference binaries).
 */
import { describe, expect, test } from "bun:test";
import { parseBridgeConfig } from "../bridge/config.ts";
import { parseTuningConfig } from "../tuning/config.ts";
import { parseVrfConfig } from "../vrf/config.ts";

const base = { cniVersion: "1.0.0", name: "n" };

describe("plugin configs match keys in any letter case, as Go does", () => {
  test("bridge reads Bridge, IsGateway and IPAM.Type as its fields", () => {
    const c = parseBridgeConfig(
      { ...base, type: "bridge", Bridge: "br9", IsGateway: true, IPAM: { Type: "host-local" } },
      "",
    );
    expect([c.bridge, c.isGateway, c.ipamType]).toEqual(["br9", true, "host-local"]);
  });

  test("a wrongly typed value under another spelling is Go's unmarshal error for the field", () => {
    expect(() => parseBridgeConfig({ ...base, type: "bridge", MTU: "x" }, "")).toThrow(
      "failed to load netconf: json: cannot unmarshal string into Go struct field NetConf.mtu of type int",
    );
    expect(() => parseTuningConfig({ ...base, type: "tuning", Mtu: "x" }, "")).toThrow(
      "Go struct field TuningConf.mtu of type int",
    );
    expect(() => parseVrfConfig({ ...base, type: "vrf", VRFName: 5 })).toThrow("Go struct field VRFNetConf.vrfname");
  });

  test("null under a later spelling leaves the earlier value, as Go's null leaves a string", () => {
    expect(parseBridgeConfig({ ...base, type: "bridge", bridge: "br9", BRIDGE: null }, "").bridge).toBe("br9");
  });
});
