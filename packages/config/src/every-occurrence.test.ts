/**
 * libcni type-checks every occurrence of a PluginConf key, repeated or in another letter
 * case (PC-6); the minimal inputs `cni fuzz config --against` found (issue 15), each
 * checked against libcni v1.1 by scripts/compat/config-against.compat.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { needsEveryOccurrence } from "./_every-occurrence.ts";
import { checkPluginConf, parseConfList, parsePluginConf } from "./index.ts";

function message(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof CniError) return err.message;
    throw err;
  }
  throw new Error("expected a CniError");
}

describe("parsePluginConf type-checks every occurrence of a known key (PC-6)", () => {
  test("a wrongly typed name in another letter case before the right one is refused", () => {
    expect(message(() => parsePluginConf('{"nAmE":0,"name":"a","type":"x"}'))).toBe(
      "nAmE: error parsing configuration: json: cannot unmarshal number into Go struct field PluginConf.name of type string",
    );
  });

  test("a wrongly typed cniVersion given twice is refused at its first occurrence", () => {
    expect(message(() => parsePluginConf('{"cniVersion":0,"cniVersion":"1.0.0","type":"x"}'))).toBe(
      "cniVersion: error parsing configuration: json: cannot unmarshal number into Go struct field PluginConf.cniVersion of type string",
    );
  });

  test("nested structs and the capabilities map are checked at every occurrence too", () => {
    expect(message(() => parsePluginConf('{"type":"x","ipam":{"TYPE":1,"type":"y"}}'))).toEndWith(
      "Go struct field IPAM.ipam.type of type string",
    );
    expect(message(() => parsePluginConf('{"type":"x","capabilities":{"a":"y","a":true}}'))).toEndWith(
      "Go struct field PluginConf.capabilities.a of type bool",
    );
  });

  test("lint's first issue is the one parsing throws", () => {
    const issues = checkPluginConf('{"nAmE":0,"name":"a","type":"x"}');
    expect(issues[0]?.path).toEqual(["nAmE"]);
  });

  test("the values are Go's: the last string wins, null keeps it, capabilities merge", () => {
    const { network } = parsePluginConf(
      '{"type":"a","Type":"b","name":"n","NAME":null,"capabilities":{"portMappings":true},"Capabilities":{"bandwidth":true},"x":1,"x":2}',
    );
    expect(network).toEqual({
      type: "b",
      name: "n",
      capabilities: { portMappings: true, bandwidth: true },
      x: 2,
    } as never);
  });

  test("an empty type after every occurrence is still missing 'type', at its last spelling", () => {
    expect(message(() => parsePluginConf('{"type":"x","TYPE":""}'))).toBe(
      "TYPE: error parsing configuration: missing 'type'",
    );
  });
});

describe("parseConfList judges a plugin as libcni does after re-encoding it from a map", () => {
  test("two spellings of a field are both checked", () => {
    expect(message(() => parseConfList('{"name":"l","plugins":[{"nAmE":0,"name":"a","type":"x"}]}'))).toBe(
      "plugins[0].nAmE: failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal number into Go struct field PluginConf.name of type string",
    );
  });

  test("the spelling that sorts last wins, not the last in the file", () => {
    expect(parseConfList('{"name":"l","plugins":[{"type":"a","Type":"b"}]}').plugins[0]?.network.type).toBe("a");
  });

  test("a key repeated exactly inside a list element counts once, as in libcni's map", () => {
    expect(parseConfList('{"name":"l","plugins":[{"name":0,"name":"a","type":"x"}]}').plugins[0]?.network.name).toBe(
      "a",
    );
  });
});

describe("needsEveryOccurrence keeps the common config on the fast path", () => {
  const typical =
    '{"cniVersion":"1.0.0","name":"n","type":"bridge","ipam":{"type":"host-local","ranges":[[{"subnet":"198.18.0.0/24"}]]}}';

  test("a config with unique keys spelt exactly does not need it", () => {
    expect(needsEveryOccurrence(typical, JSON.parse(typical))).toBe(false);
  });

  test("a repeated key anywhere, or a folded known key, does", () => {
    const repeated = typical.replace('"ranges"', '"a":1,"a":2,"ranges"');
    expect(needsEveryOccurrence(repeated, JSON.parse(repeated))).toBe(true);
    const folded = typical.replace('"name"', '"Name"');
    expect(needsEveryOccurrence(folded, JSON.parse(folded))).toBe(true);
  });

  test("a string value that looks like a key does not fool the count", () => {
    const tricky = '{"type":"x","v":"\\"a\\":","w":["\\":","b"]}';
    expect(needsEveryOccurrence(tricky, JSON.parse(tricky))).toBe(false);
  });
});
