import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiskCache as AsyncDiskCache } from "./cache-disk.ts";
import { BlockingDiskCache } from "./cache-disk-blocking.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tscni-cache-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

for (const DiskCache of [AsyncDiskCache, BlockingDiskCache])
  describe(DiskCache.name, () => {
    test("creates results/ as 0700 and writes records as 0600, leaving no temp file behind (CACHE-1)", async () => {
      const cache = new DiskCache(join(dir, "nested", "cni"));
      await cache.write("net1-c1-eth0", "{}");
      expect(statSync(cache.resultsDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(cache.resultsDir, "net1-c1-eth0")).mode & 0o777).toBe(0o600);
      expect(readdirSync(cache.resultsDir)).toEqual(["net1-c1-eth0"]);
    });

    test("replaces a record as a whole on a repeated write (CACHE-4)", async () => {
      const cache = new DiskCache(dir);
      await cache.write("r", "first, longer text");
      await cache.write("r", "second");
      expect(await cache.read("r")).toBe("second");
    });

    test("reads a missing record as undefined and removes one that is gone without error", async () => {
      const cache = new DiskCache(dir);
      expect(await cache.read("nope")).toBeUndefined();
      await cache.remove("nope");
    });

    test("lists names sorted, an absent directory as empty, and skips in-flight temp files (GA-1)", async () => {
      const cache = new DiskCache(dir);
      expect(await cache.names()).toEqual([]);
      await cache.write("b", "{}");
      await cache.write("a", "{}");
      writeFileSync(join(cache.resultsDir, ".tscni-tmp-c-1-x"), "{}");
      expect(await cache.names()).toEqual(["a", "b"]);
    });
  });
