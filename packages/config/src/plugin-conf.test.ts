import { describe, expect, test } from "bun:test";
import { CniError, ErrorCode } from "@tscni/spec";
import { checkPluginConf, parsePluginConf } from "./plugin-conf.ts";

const FILE = "/etc/cni/net.d/10-a.conf";

function failure(doc: unknown): CniError {
  try {
    parsePluginConf(typeof doc === "string" ? doc : JSON.stringify(doc), FILE);
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error("expected parsePluginConf to fail");
}

describe("parsePluginConf (SC-1)", () => {
  test("invalid JSON gives 'error parsing configuration:' with code 6", () => {
    const err = failure("{");
    expect(err.code).toBe(ErrorCode.DecodingFailure);
    expect(err.message).toStartWith(`${FILE}: error parsing configuration: `);
  });

  test("a missing or empty type gives missing 'type' at path type", () => {
    const expected = `${FILE}: type: error parsing configuration: missing 'type'`;
    expect(failure({ name: "a" }).message).toBe(expected);
    expect(failure({ name: "a", type: "" }).message).toBe(expected);
    expect(failure({ name: "a", type: null }).message).toBe(expected);
    expect(failure("null").message).toBe(expected);
  });

  test("a document that is not an object fails with Go's unmarshal text", () => {
    expect(failure([1]).message).toBe(
      `${FILE}: error parsing configuration: json: cannot unmarshal array into Go value of type types.PluginConf`,
    );
  });

  test("keeps the raw bytes and passes unknown keys through (PC-5)", () => {
    const text = '{"cniVersion":"1.0.0","name":"n","type":"bridge","isGateway":true}';
    const conf = parsePluginConf(text);
    expect(new TextDecoder().decode(conf.bytes)).toBe(text);
    expect(conf.network).toEqual({ cniVersion: "1.0.0", name: "n", type: "bridge", isGateway: true });
  });
});

describe("parsePluginConf: Go types of the known fields (PC-6)", () => {
  test.each([
    [{ type: 1 }, "type", "json: cannot unmarshal number into Go struct field PluginConf.type of type string"],
    [
      { type: "x", name: true },
      "name",
      "json: cannot unmarshal bool into Go struct field PluginConf.name of type string",
    ],
    [{ type: "x", capabilities: { portMappings: "yes" } }, "capabilities.portMappings", "of type bool"],
    [{ type: "x", capabilities: [] }, "capabilities", "of type map[string]bool"],
    [
      { type: "x", ipam: "host-local" },
      "ipam",
      "json: cannot unmarshal string into Go struct field PluginConf.ipam of type types.IPAM",
    ],
    [{ type: "x", ipam: { type: 5 } }, "ipam.type", "Go struct field IPAM.ipam.type of type string"],
    [{ type: "x", dns: { nameservers: "8.8.8.8" } }, "dns.nameservers", "of type []string"],
    [{ type: "x", dns: { search: [1] } }, "dns.search[0]", "of type string"],
    [{ type: "x", prevResult: [] }, "prevResult", "of type map[string]interface {}"],
    [
      { type: "x", "cni.dev/valid-attachments": [{ ifname: 1 }] },
      '["cni.dev/valid-attachments"][0].ifname',
      "of type string",
    ],
  ])("%j fails at %s", (doc, path, text) => {
    const err = failure(doc);
    expect(err.code).toBe(ErrorCode.InvalidNetworkConfig);
    expect(err.message).toStartWith(`${FILE}: ${path}: error parsing configuration: `);
    expect(err.message).toContain(text);
  });

  test("null leaves a field at its zero value, as Go does", () => {
    const conf = parsePluginConf(
      JSON.stringify({ type: "x", name: null, capabilities: { a: null }, dns: { search: [null] } }),
    );
    expect(conf.network.name).toBeUndefined();
    expect(conf.network.type).toBe("x");
  });

  test("the first type error in document order is the one reported", () => {
    expect(failure('{"dns":5,"type":"x","name":1}').message).toContain(": dns: ");
    expect(failure('{"name":1,"type":"x","dns":5}').message).toContain(": name: ");
  });

  test("checkPluginConf reports every problem", () => {
    const issues = checkPluginConf(JSON.stringify({ name: 1, ipam: { type: 2 } }));
    expect(issues.map((i) => i.path)).toEqual([["name"], ["ipam", "type"], ["type"]]);
  });
});

describe("parsePluginConf: keys match the known fields case-insensitively, as Go's decoder does", () => {
  test("a type spelt Type or TYPE is the type", () => {
    expect(parsePluginConf('{"Type":"bridge"}').network.type).toBe("bridge");
    expect(parsePluginConf('{"TYPE":"bridge","Name":"n"}').network.name).toBe("n");
  });

  test("the last matching key wins", () => {
    expect(parsePluginConf('{"type":"a","Type":"b"}').network.type).toBe("b");
  });

  test("an error path keeps the file's spelling", () => {
    expect(failure('{"Type":7}').message).toStartWith(`${FILE}: Type: `);
    expect(failure('{"type":"x","IPAM":{"Type":7}}').message).toStartWith(`${FILE}: IPAM.Type: `);
  });

  test("a key named __proto__ stays a plain key", () => {
    const conf = parsePluginConf('{"type":"x","__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(conf.network)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

// Regression (cni fuzz config --against, issue 15): libcni's struct skips the value of a
// key it has no field for, so a number beyond float64 there is no error; inside
// prevResult (a map[string]interface{}) it still is.
test("a number beyond float64 under an unknown key parses, under prevResult it fails to decode", () => {
  expect(parsePluginConf('{"type":"x","resolvConf":[{"":-1e400}]}').network.type).toBe("x");
  expect(() => parsePluginConf('{"type":"x","prevResult":{"a":1e400}}')).toThrow(
    "json: cannot unmarshal number out of range into Go value of type float64",
  );
});

// Regression (cni fuzz config --against, issue 15): Go decodes a lone surrogate escape as
// U+FFFD, JSON.parse keeps it.
test("a lone surrogate escape in a string reads as U+FFFD, as libcni reads it", () => {
  expect(parsePluginConf('{"name":"\\ud800","type":"x"}').network.name).toBe("\ufffd");
  expect(parsePluginConf('{"nAmE":"a\\udc00","type":"x"}').network.name).toBe("a\ufffd");
  expect(parsePluginConf('{"name":"\\ud83d\\ude00","type":"x"}').network.name).toBe("\u{1f600}");
});
