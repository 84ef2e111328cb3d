import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseIP } from "@tscni/spec/ipnet";
import { escapeForReport, isDamagedCopyOf, isSoundHolder } from "./damage.ts";
import { type DiskStore, openDiskStore } from "./store-disk.ts";

describe("isDamagedCopyOf", () => {
  test("calls empty, garbage and truncated contents damaged copies of the holder", () => {
    for (const c of ["", "\x00\xff\x1b[2J", "c1\r\net", "c1\r", "c", "c1\r\neth0\n"])
      expect(isDamagedCopyOf(c, "c1", "eth0")).toBe(true);
  });
  test("never calls another sound holder, or the holder itself, damaged", () => {
    for (const c of ["c2\r\neth0", "c1\r\neth1", "c1\r\neth0", "c10"])
      expect(isDamagedCopyOf(c, "c1", "eth0")).toBe(false);
    expect(isSoundHolder("c1")).toBe(true);
  });
});

describe("escapeForReport", () => {
  test("escapes control and non-ASCII characters and shortens long contents", () => {
    expect(escapeForReport("a\r\n\x1b[2J\u00e9\\")).toBe("a\\r\\n\\x1b[2J\\xe9\\\\");
    expect(escapeForReport("x".repeat(70))).toBe(`${"x".repeat(64)}...(70 chars)`);
  });
});

describe("DEL of an attachment whose reservation file was damaged (issue 16 item 2)", () => {
  let root: string;
  let store: DiskStore;
  const file = (ip: string) => join(root, "net1", ip);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "tscni-damage-"));
    store = openDiskStore(root, "net1");
  });
  afterEach(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  for (const [what, content] of [
    ["empty", ""],
    ["garbage", "\x00\x01\xfe"],
    ["truncated", "c1\r\ne"],
  ] as const) {
    test(`releases a ${what} file through the index, and leaves another holder's file alone`, async () => {
      await store.reserve("c1", "eth0", parseIP("198.18.0.2")!, "0");
      await store.reserve("c2", "eth0", parseIP("198.18.0.3")!, "0");
      writeFileSync(file("198.18.0.2"), content);
      await store.releaseByID("c1", "eth0");
      expect(existsSync(file("198.18.0.2"))).toBe(false);
      expect(existsSync(file("198.18.0.3"))).toBe(true);
    });
  }

  test("keeps a file the index lists for the attachment when another sound holder now owns it", async () => {
    await store.reserve("c1", "eth0", parseIP("198.18.0.2")!, "0");
    writeFileSync(file("198.18.0.2"), "c9\r\neth0");
    await store.releaseByID("c1", "eth0");
    expect(existsSync(file("198.18.0.2"))).toBe(true);
  });
});
