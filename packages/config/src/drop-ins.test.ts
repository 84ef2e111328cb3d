import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CniError } from "@tscni/spec";
import { confListFromFile, dropInDir } from "./drop-ins.ts";
import { parseConfList } from "./conf-list.ts";
import { loadConfListFile, loadNetwork } from "./load.ts";
import type { ConfFile } from "./types.ts";
import { type TestDir, testDir } from "./testing/dir.ts";

const enc = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
const types = (l: { plugins: { network: { type: string } }[] }) => l.plugins.map((p) => p.network.type);

let d: TestDir;
beforeEach(() => {
  d = testDir();
});
afterEach(() => d.remove());

describe("DI-1: drop-ins are <dir>/<name>/*.conf, appended after the inline plugins in name order", () => {
  test("drop-ins follow the inline plugins, sorted by file name", async () => {
    const path = d.write("10-net.conflist", { cniVersion: "1.0.0", name: "net", plugins: [{ type: "bridge" }] });
    d.write("net/20-tuning.conf", { type: "tuning" });
    d.write("net/10-portmap.conf", { type: "portmap" });
    expect(types(await loadConfListFile(path))).toEqual(["bridge", "portmap", "tuning"]);
  });

  test("only the exact .conf extension counts, and subdirectories are not searched", async () => {
    const path = d.write("10-net.conflist", { name: "net", plugins: [{ type: "bridge" }] });
    d.write("net/a.json", { type: "json" });
    d.write("net/b.conflist", { type: "list" });
    d.write("net/c.CONF", { type: "upper" });
    d.write("net/deeper/d.conf", { type: "deeper" });
    expect(types(await loadConfListFile(path))).toEqual(["bridge"]);
  });

  test("a list without a plugins key gets all its plugins from drop-ins", async () => {
    d.write("10-net.conflist", { cniVersion: "1.1.0", name: "net" });
    d.write("net/a.conf", { type: "bridge" });
    expect(types(await loadNetwork(d.dir, "net"))).toEqual(["bridge"]);
  });

  test("loadOnlyInlinedPlugins keeps the drop-ins out (CF-4: libcni's reading)", async () => {
    const path = d.write("10-net.conflist", {
      name: "net",
      loadOnlyInlinedPlugins: "true",
      plugins: [{ type: "bridge" }],
    });
    d.write("net/a.conf", { type: "portmap" });
    expect(types(await loadConfListFile(path))).toEqual(["bridge"]);
  });

  test("the drop-in directory is named after the network, not the file", () => {
    expect(dropInDir("/etc/cni/net.d/10-x.conflist", "mynet")).toBe("/etc/cni/net.d/mynet");
  });
});

describe("DI-2: a missing drop-in directory is fine, a broken one aborts", () => {
  test("no drop-in directory leaves the inline plugins", async () => {
    const path = d.write("10-net.conflist", { name: "net", plugins: [{ type: "bridge" }] });
    expect(types(await loadConfListFile(path))).toEqual(["bridge"]);
  });

  test("a drop-in without type aborts with the drop-in's file and path", async () => {
    const path = d.write("10-net.conflist", { name: "net", plugins: [{ type: "bridge" }] });
    const bad = d.write("net/a.conf", { name: "x" });
    await expect(loadConfListFile(path)).rejects.toThrow(`${bad}: type: error parsing configuration: missing 'type'`);
  });

  test("a drop-in that is not JSON aborts the directory load", async () => {
    d.write("10-net.conflist", { name: "net", plugins: [{ type: "bridge" }] });
    d.write("net/a.conf", "{");
    await expect(loadNetwork(d.dir, "net")).rejects.toThrow(
      `${join(d.dir, "net/a.conf")}: error parsing configuration:`,
    );
  });

  test("a drop-in path that is a file, not a directory, fails to read", async () => {
    const path = d.write("10-net.conflist", { name: "net", plugins: [{ type: "bridge" }] });
    d.write("net", "not a directory");
    await expect(loadConfListFile(path)).rejects.toThrow(`failed to read plugin config files in ${join(d.dir, "net")}`);
  });
});

describe("DI-3: a list that ends up with no plugins fails", () => {
  test("no plugins key and no drop-ins: no plugin configs found", async () => {
    const path = d.write("10-net.conflist", { name: "net" });
    await expect(loadConfListFile(path)).rejects.toThrow(`${path}: no plugin configs found`);
  });

  test("it aborts a directory load too, even for another network", async () => {
    d.write("10-empty.conflist", { name: "empty" });
    d.write("20-net.conflist", { name: "net", plugins: [{ type: "bridge" }] });
    await expect(loadNetwork(d.dir, "net")).rejects.toThrow("no plugin configs found");
  });
});

describe("DI-4: drop-ins come only from files", () => {
  test("parseConfList never reads drop-ins", () => {
    expect(parseConfList(JSON.stringify({ name: "net" })).plugins).toEqual([]);
  });

  test("confListFromFile reads them only through the reader it is given", () => {
    const list: ConfFile = { path: "/cfg/10-net.conflist", bytes: enc({ name: "net", plugins: [{ type: "bridge" }] }) };
    const asked: string[] = [];
    const reader = (dir: string): ConfFile[] => {
      asked.push(dir);
      return [{ path: `${dir}/a.conf`, bytes: enc({ type: "portmap" }) }];
    };
    expect(types(confListFromFile(list))).toEqual(["bridge"]);
    expect(types(confListFromFile(list, reader))).toEqual(["bridge", "portmap"]);
    expect(asked).toEqual(["/cfg/net"]);
  });

  test("a reader that fails becomes libcni's read error", () => {
    const list: ConfFile = { path: "/cfg/10-net.conflist", bytes: enc({ name: "net", plugins: [{ type: "bridge" }] }) };
    const reader = (): ConfFile[] => {
      throw new Error("permission denied");
    };
    expect(() => confListFromFile(list, reader)).toThrow(
      new CniError(5, "failed to read plugin config files in /cfg/net: permission denied"),
    );
  });
});
