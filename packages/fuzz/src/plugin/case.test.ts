import { expect, test } from "bun:test";
import fc from "fast-check";
import { caseArbitrary, drawCase, fromReplayFile, toReplayFile } from "./case.ts";
import { CHAINED_IFNAME, DIR_TOKEN, envSetFor, fillTokens, NETNS_TOKEN } from "./env.ts";
import { pluginStdin } from "./stdin.ts";
import { PLUGIN_TYPES } from "./configs.ts";

test("the same seed and index draw the same case; another index draws another", () => {
  const arb = caseArbitrary("bridge");
  expect(drawCase(arb, 9, "bridge", 3)).toEqual(drawCase(arb, 9, "bridge", 3));
  expect(drawCase(arb, 9, "bridge", 3)).not.toEqual(drawCase(arb, 9, "bridge", 4));
});

test("a replay file gives back the same case, stdin bytes exactly", () => {
  const c = { plugin: "ptp", env: { CNI_COMMAND: "ADD" }, stdin: Uint8Array.from([0xff, 0x00, 0x7b]) };
  const file = JSON.parse(JSON.stringify(toReplayFile("/d", c, { kind: "leak", detail: "x", seed: 1, index: 2 })));
  expect(fromReplayFile(file)).toEqual({ dir: "/d", kind: "leak", case: c });
  expect(() => fromReplayFile({ target: "config" })).toThrow(/not a plugin replay file/);
});

test("env sets cover every variant the brief names, CNI_PATH always the plugin dir", () => {
  const seen = new Set<string>();
  for (const e of fc.sample(envSetFor(false), { seed: 1, numRuns: 1200 })) {
    expect(e.CNI_PATH).toBe(DIR_TOKEN);
    seen.add(`command ${e.CNI_COMMAND ?? "missing"}`);
    if (e.CNI_CONTAINERID === undefined) seen.add("id missing");
    else if (e.CNI_CONTAINERID === "") seen.add("id empty");
    else if (e.CNI_CONTAINERID.length > 255) seen.add("id overlong");
    else if (e.CNI_CONTAINERID.includes("..")) seen.add("id traversing");
    seen.add(e.CNI_NETNS === NETNS_TOKEN ? "netns real" : `netns ${e.CNI_NETNS ?? "missing"}`);
    if (e.CNI_IFNAME === undefined) seen.add("ifname missing");
    else if (e.CNI_IFNAME.length >= 16) seen.add("ifname long");
    else if (["/", " "].some((c) => e.CNI_IFNAME?.includes(c))) seen.add("ifname odd");
    if ((e.CNI_ARGS ?? "").length > 4000) seen.add("args huge");
  }
  for (const want of [
    ...["ADD", "DEL", "CHECK", "VERSION", "GC", "STATUS", "missing", "XYZ"].map((c) => `command ${c}`),
    ...["missing", "empty", "overlong", "traversing"].map((c) => `id ${c}`),
    ...["real", "missing", "@TMP@/no-such-netns", "@TMP@/regular-file"].map((c) => `netns ${c}`),
    ...["missing", "long", "odd"].map((c) => `ifname ${c}`),
    "args huge",
  ])
    expect(seen).toContain(want);
});

test("a chained plugin's env names the interface the sandbox made", () => {
  const names = fc.sample(envSetFor(true), { seed: 2, numRuns: 200 }).map((e) => e.CNI_IFNAME);
  expect(names.filter((n) => n === CHAINED_IFNAME).length).toBeGreaterThan(100);
});

test("stdin holds valid configs of each plugin type and text that is not JSON", () => {
  for (const plugin of PLUGIN_TYPES) {
    const docs = fc.sample(pluginStdin(plugin), { seed: 3, numRuns: 25 }).map((b) => new TextDecoder().decode(b));
    const types = docs.map((d) => {
      try {
        return (JSON.parse(d) as { type?: unknown }).type;
      } catch {
        return "not JSON";
      }
    });
    expect(types).toContain(plugin);
    expect(types).toContain("not JSON");
  }
});

test("fillTokens puts the run's paths in", () => {
  expect(fillTokens(`${NETNS_TOKEN}:${DIR_TOKEN}:@TMP@/ipam`, { netns: "/n", dir: "/d", tmp: "/t" })).toBe(
    "/n:/d:/t/ipam",
  );
});
