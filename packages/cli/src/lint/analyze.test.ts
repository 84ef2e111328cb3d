import { describe, expect, test } from "bun:test";
import type { ConfFile } from "@tscni/config";
import { analyzeConfDir } from "./analyze.ts";
import { checkPlugins, sharedProbe, type PluginProbe } from "./plugins.ts";

const enc = (x: unknown) => new TextEncoder().encode(typeof x === "string" ? x : JSON.stringify(x));
const file = (name: string, x: unknown): ConfFile => ({ path: `/d/${name}`, bytes: enc(x) });
const noDropIns = () => [];
const list = (name: string, ...types: string[]) => ({
  cniVersion: "1.0.0",
  name,
  plugins: types.map((type) => ({ type })),
});

describe("analyzeConfDir", () => {
  test("explains that a .conflist wins over a .conf of the same name", () => {
    const r = analyzeConfDir(
      "/d",
      [file("20-a.conflist", list("a", "bridge")), file("10-a.conf", { name: "a", type: "ptp" })],
      noDropIns,
    );
    const a = r.networks.find((n) => n.name === "a");
    expect(a?.loaded?.source).toBe("/d/20-a.conflist");
    expect(a?.why).toBe("20-a.conflist wins over 10-a.conf: .conflist files are loaded first");
    expect(a?.problems.join("\n")).toContain(
      'network "a" is defined in 2 files (20-a.conflist, 10-a.conf); only 20-a.conflist is used',
    );
  });

  test("explains that the first in sort order wins among lists", () => {
    const r = analyzeConfDir(
      "/d",
      [file("20-a.conflist", list("a", "y")), file("10-a.conflist", list("a", "x"))],
      noDropIns,
    );
    expect(r.networks[0]?.why).toBe("10-a.conflist wins over 20-a.conflist: first in sort order");
  });

  test("reports every problem of a broken file with its path, and the networks it blocks", () => {
    const r = analyzeConfDir(
      "/d",
      [file("05-b.conflist", { name: "b", plugins: [{}, { type: 3 }] }), file("10-a.conflist", list("a", "bridge"))],
      noDropIns,
    );
    expect(r.files[0]?.problems).toEqual([
      "/d/05-b.conflist: plugins[0].type: failed to parse plugin config 0: error parsing configuration: missing 'type'",
      "/d/05-b.conflist: plugins[1].type: failed to parse plugin config 1: error parsing configuration: json: cannot unmarshal number into Go struct field PluginConf.type of type string",
    ]);
    // libcni aborts on the first broken list it meets, so "a" (sorted after it) cannot load.
    const a = r.networks.find((n) => n.name === "a");
    expect(a?.loaded).toBeUndefined();
    expect(a?.problems[0]).toBe(
      'network "a" cannot be loaded: 05-b.conflist is broken, and libcni stops at the first broken file it reads, whatever its network (fix or remove it)',
    );
    expect(a?.intended?.source).toBe("/d/10-a.conflist");
  });

  test("flags a name the runtime will reject at ADD time and an unknown cniVersion", () => {
    const r = analyzeConfDir(
      "/d",
      [file("a.conflist", { cniVersion: "1.2.3", name: "my net", plugins: [{ type: "x" }] })],
      noDropIns,
    );
    expect(r.files[0]?.problems.join("\n")).toContain('network name "my net" is not allowed');
    expect(r.files[0]?.problems.join("\n")).toContain('cniVersion: "1.2.3" is not a CNI version');
  });

  test("suggests .conflist for a list saved as .conf", () => {
    const r = analyzeConfDir("/d", [file("a.conf", list("a", "bridge"))], noDropIns);
    expect(r.files[0]?.problems.join("\n")).toContain("this looks like a list: rename it to .conflist");
  });

  test("a valid directory has no problems", () => {
    const r = analyzeConfDir("/d", [file("a.conflist", list("a", "bridge"))], noDropIns);
    expect([...r.files.flatMap((f) => f.problems), ...r.networks.flatMap((n) => n.problems)]).toEqual([]);
    expect(r.defaultCandidates[0]?.network?.name).toBe("a");
  });
});

describe("checkPlugins", () => {
  const probe = (installed: Record<string, readonly string[]>): PluginProbe => ({
    find: async (type) => {
      if (installed[type] === undefined) throw new Error(`failed to find plugin "${type}" in path [/bin]`);
      return `/bin/${type}`;
    },
    versions: async (path) => installed[path.slice("/bin/".length)] ?? [],
  });
  const parsed = (doc: object) => analyzeConfDir("/d", [file("a.conflist", doc)], noDropIns).files[0]?.list;

  test("reports a missing plugin and a missing IPAM plugin with where they are named", async () => {
    const l = parsed({
      cniVersion: "1.0.0",
      name: "a",
      plugins: [{ type: "bridge", ipam: { type: "host-local" } }, { type: "portmap" }],
    });
    if (l === undefined) throw new Error("expected a list");
    const got = await checkPlugins(l, probe({ bridge: ["1.0.0"] }));
    expect(got.map((p) => [p.where, p.problem === undefined])).toEqual([
      ["plugins[0]", true],
      ["plugins[0].ipam", false],
      ["plugins[1]", false],
    ]);
    expect(got[2]?.problem).toContain('plugin "portmap" is not installed');
  });

  test("requires the exact version, an empty one counting as 0.1.0 (VN-5)", async () => {
    const l = parsed({ name: "a", plugins: [{ type: "old" }] });
    if (l === undefined) throw new Error("expected a list");
    expect((await checkPlugins(l, probe({ old: ["0.1.0", "0.2.0"] })))[0]?.problem).toBeUndefined();
    expect((await checkPlugins(l, probe({ old: ["0.3.0"] })))[0]?.problem).toContain(
      'plugin old does not support config version "0.1.0"',
    );
  });

  test("a shared probe asks each binary once", async () => {
    let asked = 0;
    const p = sharedProbe({ find: async (t) => `/bin/${t}`, versions: async () => (asked++, ["1.0.0"]) });
    const l = parsed(list("a", "x", "x"));
    if (l === undefined) throw new Error("expected a list");
    await checkPlugins(l, p);
    await checkPlugins(l, p);
    expect(asked).toBe(1);
  });
});
