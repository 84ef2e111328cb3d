import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findInPath, splitPathList } from "./find.ts";

let root = "";
let a = "";
let b = "";

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "tscni-find-"));
  a = join(root, "a");
  b = join(root, "b");
  mkdirSync(a);
  mkdirSync(b);
  mkdirSync(join(a, "dirplugin"));
  writeFileSync(join(b, "dirplugin"), "#!/bin/sh\n");
  writeFileSync(join(a, "both"), "#!/bin/sh\n");
  writeFileSync(join(b, "both"), "#!/bin/sh\n");
  writeFileSync(join(b, "noexec"), "not executable");
  chmodSync(join(b, "noexec"), 0o644);
  writeFileSync(join(root, "target"), "#!/bin/sh\n");
  symlinkSync(join(root, "target"), join(a, "linked"));
  symlinkSync(join(root, "missing"), join(a, "dangling"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("findInPath", () => {
  test("rejects an empty plugin name (FP-1)", async () => {
    await expect(findInPath("", [a])).rejects.toThrow("no plugin name provided");
  });

  test("rejects a name containing a path separator (FP-2)", async () => {
    await expect(findInPath("../bin/bridge", [a])).rejects.toThrow("invalid plugin name: ../bin/bridge");
  });

  test("rejects an empty list of paths (FP-3)", async () => {
    await expect(findInPath("bridge", [])).rejects.toThrow("no paths provided");
  });

  test("takes the first directory that has the plugin (FP-4)", async () => {
    expect(await findInPath("both", [a, b])).toBe(join(a, "both"));
    expect(await findInPath("both", [b, a])).toBe(join(b, "both"));
  });

  test("skips a directory of the plugin's name and keeps searching (FP-4)", async () => {
    expect(await findInPath("dirplugin", [a, b])).toBe(join(b, "dirplugin"));
  });

  test("follows a symlink to a regular file but not a dangling one (FP-4)", async () => {
    expect(await findInPath("linked", [a])).toBe(join(a, "linked"));
    await expect(findInPath("dangling", [a])).rejects.toThrow("failed to find plugin");
  });

  test("does not check the executable bit (FP-4)", async () => {
    expect(await findInPath("noexec", [b])).toBe(join(b, "noexec"));
  });

  test("names the plugin and the directories when nothing is found (FP-5)", async () => {
    await expect(findInPath("nope", [a, b])).rejects.toThrow(`failed to find plugin "nope" in path [${a} ${b}]`);
  });
});

describe("splitPathList", () => {
  test("splits CNI_PATH on colons and drops empty entries (P-4)", () => {
    expect(splitPathList("/opt/cni/bin::/usr/lib/cni")).toEqual(["/opt/cni/bin", "/usr/lib/cni"]);
    expect(splitPathList(undefined)).toEqual([]);
    expect(splitPathList("")).toEqual([]);
  });
});
