import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { describeIssues } from "./_go.ts";
import { NetConfListSchema, PluginConfSchema } from "./config.ts";

function failure(schema: v.GenericSchema, input: unknown): string {
  const r = v.safeParse(schema, input);
  return r.success ? "ok" : describeIssues(r.issues);
}

describe("PluginConfSchema (§2.3, PC-6)", () => {
  test("a bridge plugin object parses and its unknown keys pass through unchanged (PC-5)", () => {
    const conf = {
      type: "bridge",
      bridge: "cni0",
      isGateway: true,
      ipam: { type: "host-local", ranges: [[{ subnet: "10.1.0.0/16" }]] },
      capabilities: { portMappings: true },
      dns: { nameservers: ["10.1.0.1"], custom: 1 },
      prevResult: { cniVersion: "1.0.0" },
      "cni.dev/valid-attachments": [{ containerID: "c", ifname: "eth0" }],
    };
    expect(v.parse(PluginConfSchema, conf)).toEqual(conf);
  });

  test("a missing or empty type is `missing 'type'` (SC-1)", () => {
    expect(failure(PluginConfSchema, { name: "n" })).toBe("type: missing 'type'");
    expect(failure(PluginConfSchema, { type: "" })).toBe("type: missing 'type'");
    expect(failure(PluginConfSchema, { type: null })).toBe("type: missing 'type'");
  });

  test("a capability that is not a bool is rejected, naming it", () => {
    expect(failure(PluginConfSchema, { type: "x", capabilities: { portMappings: "yes" } })).toBe(
      "capabilities.portMappings: cannot unmarshal string into bool",
    );
  });

  test("wrong JSON types for known keys are rejected with their path", () => {
    expect(failure(PluginConfSchema, { type: 1 })).toBe("type: cannot unmarshal number 1 into string");
    expect(failure(PluginConfSchema, { type: "x", ipam: [] })).toBe("ipam: cannot unmarshal array into IPAM");
    expect(failure(PluginConfSchema, { type: "x", ipam: { type: 3 } })).toBe(
      "ipam.type: cannot unmarshal number 3 into string",
    );
    expect(failure(PluginConfSchema, { type: "x", dns: { search: "a" } })).toBe(
      "dns.search: cannot unmarshal string into []string",
    );
    expect(failure(PluginConfSchema, { type: "x", prevResult: [] })).toBe(
      "prevResult: cannot unmarshal array into map[string]interface {}",
    );
    expect(failure(PluginConfSchema, { type: "x", "cni.dev/valid-attachments": [{ containerID: 1 }] })).toContain(
      '["cni.dev/valid-attachments"][0].containerID',
    );
  });

  test("known keys set to null are dropped and a null capability is false, as Go decodes them", () => {
    expect(v.parse(PluginConfSchema, { type: "x", ipam: null, capabilities: { a: null, b: true } })).toEqual({
      type: "x",
      capabilities: { a: false, b: true },
    });
  });
});

describe("NetConfListSchema (§2.2, §2.6)", () => {
  test("a list with flags as bools or strings in any case parses to bools", () => {
    const list = v.parse(NetConfListSchema, {
      cniVersion: "1.0.0",
      cniVersions: ["0.4.0", "1.1.0"],
      name: "net",
      disableCheck: "TRUE",
      disableGC: false,
      plugins: [{ type: "bridge" }, { type: "portmap", capabilities: { portMappings: true } }],
      extra: "kept",
    });
    expect(list.disableCheck).toBe(true);
    expect(list.disableGC).toBe(false);
    expect(list.extra).toBe("kept");
    expect(list.plugins?.length).toBe(2);
  });

  test("the name is required and must be a string", () => {
    expect(failure(NetConfListSchema, { plugins: [{ type: "x" }] })).toBe("name: no name");
    expect(failure(NetConfListSchema, { name: 5 })).toBe("name: invalid name type float64");
  });

  test("flags reject other strings and other types with upstream's words", () => {
    expect(failure(NetConfListSchema, { name: "n", disableCheck: "yes" })).toBe(
      'disableCheck: invalid value "yes" for disableCheck',
    );
    expect(failure(NetConfListSchema, { name: "n", disableGC: 1 })).toBe(
      "disableGC: invalid type float64 for disableGC",
    );
  });

  test("plugins must be a non-empty array of plugin objects with a type", () => {
    expect(failure(NetConfListSchema, { name: "n", plugins: {} })).toBe(
      "plugins: invalid 'plugins' type map[string]interface {}",
    );
    expect(failure(NetConfListSchema, { name: "n", plugins: [] })).toBe("plugins: no plugins in list");
    expect(failure(NetConfListSchema, { name: "n", plugins: [{ type: "a" }, {}] })).toBe(
      "plugins[1].type: missing 'type'",
    );
    expect(failure(NetConfListSchema, { name: "n", loadOnlyInlinedPlugins: true })).toBe(
      "`loadOnlyInlinedPlugins` is true, and no 'plugins' key",
    );
    expect(failure(NetConfListSchema, { name: "n" })).toBe("ok");
  });

  test("cniVersions entries must be strings that parse as versions", () => {
    expect(failure(NetConfListSchema, { name: "n", cniVersions: "1.0.0" })).toBe(
      "cniVersions: invalid type for cniVersions",
    );
    expect(failure(NetConfListSchema, { name: "n", cniVersions: ["1.0.0-rc1"] })).toBe(
      "cniVersions[0]: invalid cniVersions entry 1.0.0-rc1",
    );
    expect(failure(NetConfListSchema, { name: "n", cniVersion: 1 })).toBe("cniVersion: invalid cniVersion type");
  });
});
