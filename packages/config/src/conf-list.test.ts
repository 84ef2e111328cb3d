import { describe, expect, test } from "bun:test";
import { CniError, ErrorCode } from "@tscni/spec";
import { checkConfList, parseConfList } from "./conf-list.ts";

const FILE = "/etc/cni/net.d/10-a.conflist";

/** The CniError thrown by parseConfList for `doc`. */
function failure(doc: unknown, source = FILE): CniError {
  try {
    parseConfList(typeof doc === "string" ? doc : JSON.stringify(doc), source);
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error("expected parseConfList to fail");
}

const ok = (doc: unknown) => parseConfList(JSON.stringify(doc));
const bridge = { type: "bridge" };

describe("parseConfList step 1: the input must be a JSON object", () => {
  test("invalid JSON is a decoding failure (code 6) naming the file", () => {
    const err = failure('{"name":');
    expect(err.code).toBe(ErrorCode.DecodingFailure);
    expect(err.message).toStartWith(`${FILE}: error parsing configuration list: `);
  });

  test("an array is an invalid config (code 7) with Go's unmarshal text", () => {
    const err = failure([]);
    expect(err.code).toBe(ErrorCode.InvalidNetworkConfig);
    expect(err.message).toContain(
      "error parsing configuration list: json: cannot unmarshal array into Go value of type map[string]interface {}",
    );
  });

  test("null decodes as an empty object, so the error is the missing name", () => {
    expect(failure("null").message).toBe(`${FILE}: name: error parsing configuration list: no name`);
  });

  test("a byte-order mark is rejected as Go's decoder does", () => {
    // Go's json.Unmarshal reads the mark's first byte 0xEF as the rune U+00EF.
    expect(failure('\ufeff{"name":"a","plugins":[{"type":"x"}]}').message).toContain(
      "invalid character 'ï' looking for beginning of value",
    );
  });

  test("a number beyond float64 is undecodable, with its path", () => {
    const err = failure('{"name":"a","plugins":[{"type":"x","mtu":1e400}]}');
    expect(err.code).toBe(ErrorCode.DecodingFailure);
    expect(err.message).toContain("plugins[0].mtu");
  });

  test("nesting deeper than Go's limit is undecodable rather than a crash", () => {
    const deep = `{"name":"a","x":${"[".repeat(10001)}${"]".repeat(10001)}}`;
    expect(failure(deep).message).toContain("exceeded max depth");
  });

  test("the message has no file prefix when the source is unknown", () => {
    expect(() => parseConfList("{}")).toThrow(
      new CniError(ErrorCode.InvalidNetworkConfig, "name: error parsing configuration list: no name"),
    );
  });
});

describe("parseConfList step 2: name", () => {
  test("a missing name fails with 'no name' at path name", () => {
    expect(failure({ plugins: [bridge] }).message).toBe(`${FILE}: name: error parsing configuration list: no name`);
  });

  test("a non-string name reports its Go type", () => {
    expect(failure({ name: 5, plugins: [bridge] }).message).toContain("invalid name type float64");
    expect(failure({ name: null, plugins: [bridge] }).message).toContain("invalid name type <nil>");
    expect(failure({ name: ["a"], plugins: [bridge] }).message).toContain("invalid name type []interface {}");
  });

  test("the name is not checked against the name rules (VAL-5)", () => {
    expect(ok({ name: "bad name/../x", plugins: [bridge] }).name).toBe("bad name/../x");
    expect(ok({ name: "", plugins: [bridge] }).name).toBe("");
  });
});

describe("parseConfList step 3: cniVersion", () => {
  test("a non-string cniVersion fails", () => {
    expect(failure({ name: "a", cniVersion: 1, plugins: [bridge] }).message).toBe(
      `${FILE}: cniVersion: error parsing configuration list: invalid cniVersion type float64`,
    );
  });

  test("without cniVersions any string is kept as-is, even garbage (step 7)", () => {
    expect(ok({ name: "a", cniVersion: "1.2.3", plugins: [bridge] }).cniVersion).toBe("1.2.3");
    expect(ok({ name: "a", cniVersion: "banana", plugins: [bridge] }).cniVersion).toBe("banana");
    expect(ok({ name: "a", plugins: [bridge] }).cniVersion).toBe("");
  });
});

describe("parseConfList step 4: cniVersions selection (VN-2)", () => {
  const version = (doc: object) => ok({ name: "a", plugins: [bridge], ...doc }).cniVersion;

  test("the highest supported version of cniVersion and cniVersions wins", () => {
    expect(version({ cniVersion: "0.3.1", cniVersions: ["0.4.0", "1.0.0"] })).toBe("1.0.0");
    expect(version({ cniVersion: "1.1.0", cniVersions: ["0.4.0"] })).toBe("1.1.0");
  });

  test("entries above 1.1.0 are dropped silently", () => {
    expect(version({ cniVersions: ["1.0.0", "2.0.0", "1.2.0"] })).toBe("1.0.0");
  });

  test("a cniVersion above 1.1.0 does not join the candidates", () => {
    expect(version({ cniVersion: "9.9.9", cniVersions: ["0.4.0"] })).toBe("0.4.0");
  });

  test("no candidates leave cniVersion as it was", () => {
    expect(version({ cniVersion: "9.9.9", cniVersions: ["2.0.0"] })).toBe("9.9.9");
    expect(version({ cniVersions: [] })).toBe("");
  });

  test("versions compare numerically, and the first spelling of the maximum is kept", () => {
    expect(version({ cniVersions: ["0.10.0", "0.9.0"] })).toBe("0.10.0");
    expect(version({ cniVersions: ["1.0", "1.0.0"] })).toBe("1.0");
  });

  test("cniVersions must be an array of strings", () => {
    expect(failure({ name: "a", cniVersions: "1.0.0" }).message).toContain(
      "cniVersions: error parsing configuration list: invalid type for cniVersions",
    );
    expect(failure({ name: "a", cniVersions: ["1.0.0", 1] }).message).toBe(
      `${FILE}: cniVersions[1]: error parsing configuration list: invalid type for cniVersions index 1: float64`,
    );
  });

  test("an entry that does not parse as a version fails", () => {
    const err = failure({ name: "a", cniVersions: ["1.0.0-rc1"] });
    expect(err.message).toContain(
      "cniVersions[0]: error parsing configuration list: invalid cniVersions entry 1.0.0-rc1 at index 0",
    );
  });

  test("cniVersion must parse when cniVersions is present", () => {
    expect(failure({ name: "a", cniVersion: "x.y", cniVersions: ["1.0.0"] }).message).toContain(
      "cniVersion: error parsing configuration list: invalid cniVersion x.y",
    );
  });
});

describe("parseConfList step 5: disableCheck, disableGC, loadOnlyInlinedPlugins", () => {
  test.each(["disableCheck", "disableGC", "loadOnlyInlinedPlugins"] as const)(
    "%s accepts a bool or 'true'/'false' in any case",
    (key) => {
      expect(ok({ name: "a", plugins: [bridge], [key]: true })[key]).toBe(true);
      expect(ok({ name: "a", plugins: [bridge], [key]: "TrUe" })[key]).toBe(true);
      expect(ok({ name: "a", plugins: [bridge], [key]: "FALSE" })[key]).toBe(false);
      expect(ok({ name: "a", plugins: [bridge] })[key]).toBe(false);
    },
  );

  test("another string fails with its lower-cased value quoted", () => {
    expect(failure({ name: "a", plugins: [bridge], disableCheck: "Yes" }).message).toBe(
      `${FILE}: disableCheck: error parsing configuration list: invalid value "yes" for disableCheck`,
    );
  });

  test("a value that is neither bool nor string fails with its Go type", () => {
    expect(failure({ name: "a", plugins: [bridge], disableGC: 1 }).message).toContain(
      "invalid type float64 for disableGC",
    );
  });
});

describe("parseConfList step 6: plugins", () => {
  test("absent plugins give a list without plugins (drop-ins may come later)", () => {
    expect(ok({ name: "a" }).plugins).toEqual([]);
  });

  test("absent plugins with loadOnlyInlinedPlugins fail", () => {
    expect(failure({ name: "a", loadOnlyInlinedPlugins: true }).message).toContain(
      "`loadOnlyInlinedPlugins` is true, and no 'plugins' key",
    );
  });

  test("plugins must be an array", () => {
    expect(failure({ name: "a", plugins: {} }).message).toContain(
      "plugins: error parsing configuration list: invalid 'plugins' type map[string]interface {}",
    );
    expect(failure({ name: "a", plugins: null }).message).toContain("invalid 'plugins' type <nil>");
  });

  test("an empty plugins array fails", () => {
    expect(failure({ name: "a", plugins: [] }).message).toBe(
      `${FILE}: plugins: error parsing configuration list: no plugins in list`,
    );
  });

  test("a plugin without type names its index and path", () => {
    expect(failure({ name: "a", plugins: [bridge, { name: "x" }] }).message).toBe(
      `${FILE}: plugins[1].type: failed to parse plugin config 1: error parsing configuration: missing 'type'`,
    );
  });

  test("a plugin field of the wrong Go type fails (PC-6)", () => {
    const err = failure({ name: "a", plugins: [{ type: "portmap", capabilities: { portMappings: "yes" } }] });
    expect(err.message).toContain(
      "plugins[0].capabilities.portMappings: failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal string",
    );
  });

  test("each plugin keeps its own bytes and typed object", () => {
    const list = ok({
      name: "a",
      cniVersion: "1.0.0",
      plugins: [{ type: "bridge", bridge: "cni0" }, { type: "portmap" }],
    });
    expect(list.plugins.map((p) => p.network.type)).toEqual(["bridge", "portmap"]);
    expect(JSON.parse(new TextDecoder().decode(list.plugins[0]?.bytes))).toEqual({ type: "bridge", bridge: "cni0" });
  });

  test("the list keeps its raw bytes and source", () => {
    const text = '{"name":"a","plugins":[{"type":"x"}]}';
    const list = parseConfList(text, FILE);
    expect(new TextDecoder().decode(list.bytes)).toBe(text);
    expect(list.source).toBe(FILE);
  });
});

describe("checkConfList", () => {
  test("reports every problem, the first being the one parseConfList throws", () => {
    const doc = JSON.stringify({ name: 1, disableCheck: "maybe", plugins: [{}, { type: 2 }] });
    const issues = checkConfList(doc);
    expect(issues.map((i) => i.path)).toEqual([
      ["name"],
      ["disableCheck"],
      ["plugins", 0, "type"],
      ["plugins", 1, "type"],
    ]);
    expect(failure(doc).message).toContain(issues[0]?.message ?? "?");
  });

  test("a valid list has no problems", () => {
    expect(checkConfList(JSON.stringify({ name: "a", plugins: [bridge] }))).toEqual([]);
  });
});

// Regression (cni fuzz config --against, issue 15): libcni's map[string]interface{} reads a
// lone surrogate escape as U+FFFD.
test("a list name with a lone surrogate escape reads as U+FFFD", () => {
  expect(parseConfList('{"name":"\\udfff","plugins":[{"type":"x"}]}').name).toBe("\ufffd");
});

// Regression (cni fuzz config --against, issue 15): libcni decodes a list into a map, every
// occurrence of a key included, so a number beyond float64 in an earlier one fails too.
test("a number beyond float64 in an earlier occurrence of a repeated key fails to decode", () => {
  expect(() =>
    parseConfList('{"cniVersion":{"b":[1e400]},"cniVersion":"0.1.0","name":"a","plugins":[{"type":"x"}]}'),
  ).toThrow("json: cannot unmarshal number out of range into Go value of type float64");
  expect(
    parseConfList('{"cniVersion":{"b":"1e400"},"cniVersion":"0.1.0","name":"a","plugins":[{"type":"x"}]}').name,
  ).toBe("a");
});
