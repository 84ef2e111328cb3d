import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { defaultNetwork, defaultNetworkCandidates } from "./default-network.ts";
import { loadDefaultNetwork } from "./load.ts";
import { type TestDir, testDir } from "./testing/dir.ts";

const enc = (x: unknown) => new TextEncoder().encode(typeof x === "string" ? x : JSON.stringify(x));
const file = (path: string, x: unknown) => ({ path, bytes: enc(x) });

describe("defaultNetwork: kubelet's pick (BRIEF seed design 1)", () => {
  test("the first valid file in name order wins, across .conf, .conflist and .json", () => {
    const pick = defaultNetwork([
      file("/d/20-b.conflist", { name: "b", plugins: [{ type: "bridge" }] }),
      file("/d/10-a.json", { name: "a", type: "ptp" }),
    ]);
    expect(pick.network?.name).toBe("a");
    expect(pick.warnings).toEqual([]);
  });

  test("a .conf is wrapped into a one-plugin list", () => {
    const pick = defaultNetwork([file("/d/10-a.conf", { cniVersion: "0.3.1", name: "a", type: "bridge" })]);
    expect(pick.network?.plugins.map((p) => p.network.type)).toEqual(["bridge"]);
    expect(pick.network?.cniVersion).toBe("0.3.1");
  });

  test("a .conf without type is skipped with a warning that suggests a .conflist", () => {
    const pick = defaultNetwork([
      file("/d/10-a.conf", { name: "a", plugins: [{ type: "bridge" }] }),
      file("/d/20-b.conf", { name: "b", type: "ptp" }),
    ]);
    expect(pick.network?.name).toBe("b");
    expect(pick.warnings).toHaveLength(1);
    expect(pick.warnings[0]).toContain("/d/10-a.conf");
    expect(pick.warnings[0]).toContain("perhaps this is a .conflist?");
  });

  test("an empty list is skipped with a warning", () => {
    const pick = defaultNetwork([
      file("/d/10-a.conflist", { name: "a", plugins: [] }),
      file("/d/11-a.conflist", { name: "a" }),
      file("/d/20-b.conflist", { name: "b", plugins: [{ type: "bridge" }] }),
    ]);
    expect(pick.network?.name).toBe("b");
    expect(pick.warnings.map((w) => w.split(":")[0])).toEqual(["/d/10-a.conflist", "/d/11-a.conflist"]);
    expect(pick.warnings[0]).toContain("no plugins in list");
    expect(pick.warnings[1]).toContain("no plugin configs found");
  });

  test("broken files are skipped instead of failing the load, unlike loadNetwork", () => {
    const pick = defaultNetwork([
      file("/d/00.conflist", "{"),
      file("/d/01.conflist", { name: "ok", plugins: [{ type: "x" }] }),
    ]);
    expect(pick.network?.name).toBe("ok");
    expect(pick.warnings[0]).toContain("/d/00.conflist: error parsing configuration list");
  });

  test("no valid file gives no network and every warning", () => {
    const pick = defaultNetwork([file("/d/a.conf", {}), file("/d/b.txt", { name: "x", type: "y" })]);
    expect(pick.network).toBeUndefined();
    expect(pick.warnings).toHaveLength(1);
  });

  test("the candidates list every considered file in order", () => {
    const cands = defaultNetworkCandidates([file("/d/b.conf", { name: "b", type: "x" }), file("/d/a.conf", {})]);
    expect(cands.map((c) => [c.path, c.network?.name ?? "skipped"])).toEqual([
      ["/d/a.conf", "skipped"],
      ["/d/b.conf", "b"],
    ]);
  });
});

describe("loadDefaultNetwork", () => {
  let d: TestDir;
  beforeEach(() => {
    d = testDir();
  });
  afterEach(() => d.remove());

  test("an empty directory has no networks", async () => {
    await expect(loadDefaultNetwork(d.dir)).rejects.toThrow(`no networks found in ${d.dir}`);
  });

  test("a directory of broken files has no valid networks, and says why", async () => {
    d.write("10-a.conf", { name: "a" });
    await expect(loadDefaultNetwork(d.dir)).rejects.toThrow(
      `no valid networks found in ${d.dir}; ${join(d.dir, "10-a.conf")}`,
    );
  });

  test("drop-ins apply to the default list", async () => {
    d.write("10-a.conflist", { name: "a", plugins: [{ type: "bridge" }] });
    d.write("a/portmap.conf", { type: "portmap" });
    const pick = await loadDefaultNetwork(d.dir);
    expect(pick.network.plugins.map((p) => p.network.type)).toEqual(["bridge", "portmap"]);
  });
});
