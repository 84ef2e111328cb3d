import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { CniError } from "@tscni/spec";
import { NoConfigsFoundError, NotFoundError } from "./errors.ts";
import { loadNetwork } from "./load.ts";
import { selectNetwork } from "./select.ts";
import { type TestDir, testDir } from "./testing/dir.ts";

const list = (name: string, type = "bridge") => ({ cniVersion: "1.0.0", name, plugins: [{ type }] });
const conf = (name: string, type = "bridge") => ({ cniVersion: "0.4.0", name, type });

let d: TestDir;
beforeEach(() => {
  d = testDir();
});
afterEach(() => d.remove());

describe("loadNetwork step 1: only regular .conflist files directly in the directory", () => {
  test("a missing directory is not an error at this stage: the result is NoConfigsFound", async () => {
    const missing = join(d.dir, "nope");
    const err = await loadNetwork(missing, "a").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoConfigsFoundError);
    expect((err as Error).message).toBe(`no net configurations found in ${missing}`);
  });

  test("the extension is case-sensitive: a .CONFLIST file is not a list", async () => {
    d.write("10-a.CONFLIST", list("a"));
    await expect(loadNetwork(d.dir, "a")).rejects.toBeInstanceOf(NoConfigsFoundError);
  });

  test("files in subdirectories and directories named .conflist are ignored", async () => {
    d.write("sub/10-a.conflist", list("a"));
    mkdirSync(join(d.dir, "20-a.conflist"));
    await expect(loadNetwork(d.dir, "a")).rejects.toBeInstanceOf(NoConfigsFoundError);
  });

  test("a symlink to a regular file counts", async () => {
    const target = d.write("store/a.json", list("a"));
    symlinkSync(target, join(d.dir, "10-a.conflist"));
    expect((await loadNetwork(d.dir, "a")).source).toBe(join(d.dir, "10-a.conflist"));
  });
});

describe("loadNetwork steps 2-3: sorted by path, any parse error aborts, the first name match wins", () => {
  test("the first file in byte order wins among lists with the same name", async () => {
    d.write("20-a.conflist", list("a", "second"));
    d.write("10-a.conflist", list("a", "first"));
    const got = await loadNetwork(d.dir, "a");
    expect(got.plugins[0]?.network.type).toBe("first");
  });

  test("byte order puts upper case before lower case and digits before letters", async () => {
    d.write("b.conflist", list("a", "lower"));
    d.write("B.conflist", list("a", "upper"));
    d.write("9.conflist", list("a", "digit"));
    expect((await loadNetwork(d.dir, "a")).plugins[0]?.network.type).toBe("digit");
  });

  test("a broken list aborts the load even when it is not the one asked for", async () => {
    d.write("05-c.conflist", { name: "c", plugins: [{}] });
    d.write("10-a.conflist", list("a"));
    await expect(loadNetwork(d.dir, "a")).rejects.toThrow(
      `${join(d.dir, "05-c.conflist")}: plugins[0].type: failed to parse plugin config 0`,
    );
  });

  test("a broken list after the match is never read, as in libcni", async () => {
    d.write("10-a.conflist", list("a"));
    d.write("20-b.conflist", "{not json");
    expect((await loadNetwork(d.dir, "a")).name).toBe("a");
  });

  test("a broken list before the match aborts with its file named", async () => {
    d.write("10-b.conflist", "{not json");
    d.write("20-a.conflist", list("a"));
    await expect(loadNetwork(d.dir, "a")).rejects.toThrow(
      `${join(d.dir, "10-b.conflist")}: error parsing configuration list:`,
    );
  });
});

describe("loadNetwork step 4: fallback to .conf and .json", () => {
  test("a .conf match is wrapped into a list", async () => {
    d.write("10-a.conf", conf("a", "ptp"));
    const got = await loadNetwork(d.dir, "a");
    expect(got.plugins.map((p) => p.network.type)).toEqual(["ptp"]);
    expect(got.cniVersion).toBe("0.4.0");
    expect(got.source).toBe(join(d.dir, "10-a.conf"));
  });

  test("a .json file is a single config too, in the same sort order", async () => {
    d.write("20-a.conf", conf("a", "second"));
    d.write("10-a.json", conf("a", "first"));
    expect((await loadNetwork(d.dir, "a")).plugins[0]?.network.type).toBe("first");
  });

  test("without .conf/.json files and without lists the error is NoConfigsFound", async () => {
    d.write("README", "hello");
    await expect(loadNetwork(d.dir, "a")).rejects.toThrow(`no net configurations found in ${d.dir}`);
  });

  test("a single config without type aborts the load, even for another name", async () => {
    d.write("10-b.conf", { name: "b" });
    d.write("20-a.conf", conf("a"));
    await expect(loadNetwork(d.dir, "a")).rejects.toThrow(
      `${join(d.dir, "10-b.conf")}: type: error parsing configuration: missing 'type'`,
    );
  });

  test("no match among single configs is NotFound", async () => {
    d.write("10-b.conf", conf("b"));
    const err = await loadNetwork(d.dir, "a").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(`no net configuration with name "a" in ${d.dir}`);
  });
});

describe("loadNetwork steps 5-6", () => {
  test("lists present but no single configs: NotFound, not NoConfigsFound (step 5)", async () => {
    d.write("10-b.conflist", list("b"));
    const err = await loadNetwork(d.dir, "a").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toBeInstanceOf(CniError);
  });

  test("a .conflist beats a .conf of the same name whatever the sort order (step 6)", async () => {
    d.write("00-a.conf", conf("a", "from-conf"));
    d.write("99-a.conflist", list("a", "from-list"));
    expect((await loadNetwork(d.dir, "a")).plugins[0]?.network.type).toBe("from-list");
  });
});

describe("selectNetwork is pure over file contents", () => {
  const enc = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));

  test("it filters extensions and sorts by path itself", () => {
    const files = [
      { path: "/d/b.conflist", bytes: enc(list("a", "b")) },
      { path: "/d/a.conflist", bytes: enc(list("a", "a")) },
      { path: "/d/a.txt", bytes: enc(list("a", "txt")) },
    ];
    expect(selectNetwork(files, "a").plugins[0]?.network.type).toBe("a");
  });

  test("paths sort by UTF-8 bytes as Go does, not by UTF-16 code units", () => {
    const files = [
      { path: "/d/\u{1F600}.conflist", bytes: enc(list("a", "astral")) },
      { path: "/d/\uFF5E.conflist", bytes: enc(list("a", "bmp")) },
    ];
    expect(selectNetwork(files, "a").plugins[0]?.network.type).toBe("bmp");
  });

  test("the errors name the given directory", () => {
    expect(() => selectNetwork([], "a", undefined, "/etc/cni/net.d")).toThrow(
      "no net configurations found in /etc/cni/net.d",
    );
  });
});
