import { describe, expect, test } from "bun:test";
import { confToList } from "./conf-to-list.ts";
import { parsePluginConf } from "./plugin-conf.ts";

describe("confToList (CF-2, SC-2)", () => {
  test("wraps a plugin object into a one-plugin list with its name and version", () => {
    const list = confToList(parsePluginConf('{"cniVersion":"0.4.0","name":"net","type":"bridge","bridge":"br0"}'));
    expect(list.name).toBe("net");
    expect(list.cniVersion).toBe("0.4.0");
    expect(list.plugins).toHaveLength(1);
    expect(list.plugins[0]?.network).toEqual({ cniVersion: "0.4.0", name: "net", type: "bridge", bridge: "br0" });
    expect(JSON.parse(new TextDecoder().decode(list.bytes))).toEqual({
      cniVersion: "0.4.0",
      name: "net",
      plugins: [{ cniVersion: "0.4.0", name: "net", type: "bridge", bridge: "br0" }],
    });
  });

  test("a missing cniVersion leaves the list version empty (treated as 0.1.0)", () => {
    expect(confToList(parsePluginConf('{"name":"net","type":"bridge"}')).cniVersion).toBe("");
  });

  test("a missing name gives an empty list name, and the flags default to false", () => {
    const list = confToList(parsePluginConf('{"type":"bridge"}'));
    expect(list.name).toBe("");
    expect([list.disableCheck, list.disableGC, list.loadOnlyInlinedPlugins]).toEqual([false, false, false]);
  });

  test("the source is kept", () => {
    expect(confToList(parsePluginConf('{"type":"x"}'), "/d/a.conf").source).toBe("/d/a.conf");
  });
});
