import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allocate, release } from "./allocate.ts";
import { loadIPAMConfig } from "./config.ts";
import { formatIP, parseIP } from "@tscni/spec/ipnet";
import { collectGarbage } from "./maintenance.ts";
import { DiskStore, openDiskStore } from "./store-disk.ts";
import { AttachmentIndex, indexDirOf } from "./store-disk-index.ts";

let root: string;
let store: DiskStore;
const dir = () => join(root, "net1");
const files = () => readdirSync(dir()).sort();
const ip = (s: string) => parseIP(s)!;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "tscni-ipam-"));
  store = openDiskStore(root, "net1");
});
afterEach(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the disk store layout (§8.3)", () => {
  test("creates the store directory 0755 with a lock file", () => {
    expect(statSync(dir()).mode & 0o777).toBe(0o755);
    expect(files()).toEqual(["lock"]);
  });

  test("writes one 0600 file per IP holding `<cid>\\r\\n<ifname>` and the set's last_reserved_ip", async () => {
    expect(await store.reserve("  cid1 ", "eth0", ip("2001:db8:0:0::a"), "1")).toBe(true);
    expect(files()).toEqual(["2001:db8::a", "last_reserved_ip.1", "lock"]);
    expect(readFileSync(join(dir(), "2001:db8::a"), "utf8")).toBe("cid1\r\neth0");
    expect(statSync(join(dir(), "2001:db8::a")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir(), "last_reserved_ip.1"), "utf8")).toBe("2001:db8::a");
    expect(formatIP((await store.lastReservedIP("1"))!)).toBe("2001:db8::a");
  });

  test("refuses an address whose file exists, whoever wrote it", async () => {
    writeFileSync(join(dir(), "198.18.0.2"), "other\r\neth0");
    expect(await store.reserve("cid1", "eth0", ip("198.18.0.2"), "0")).toBe(false);
  });

  test("reads last_reserved_ip as the reference writes it", async () => {
    writeFileSync(join(dir(), "last_reserved_ip.0"), "198.18.0.9");
    expect(formatIP((await store.lastReservedIP("0"))!)).toBe("198.18.0.9");
    expect(await store.lastReservedIP("7")).toBeUndefined();
  });
});

describe("reservations the reference wrote (no index entry)", () => {
  beforeEach(() => {
    writeFileSync(join(dir(), "198.18.0.5"), "ref\r\neth0");
    writeFileSync(join(dir(), "198.18.0.6"), "legacy");
  });

  test("are found by CHECK and released by DEL", async () => {
    expect(await store.findByID("ref", "eth0")).toBe(true);
    expect(await store.findByID("legacy", "eth3")).toBe(true);
    expect(await store.findByID("nobody", "eth0")).toBe(false);
    await release(store, "ref", "eth0");
    await release(store, "legacy", "eth3");
    expect(files()).toEqual(["lock"]);
  });

  test("are collected by GC unless valid; a legacy file stays while its container ID is valid", async () => {
    const report = await collectGarbage(store, [{ containerID: "legacy", ifname: "eth1" }]);
    expect(report.released.map((r) => formatIP(r.ip))).toEqual(["198.18.0.5"]);
    expect(files()).toEqual(["198.18.0.6", "lock"]);
  });
});

describe("GC", () => {
  test("releases stale reservations, keeps valid ones per (cid, ifname), never touches lock or last_reserved_ip", async () => {
    const conf = loadIPAMConfig({ name: "net1", cniVersion: "1.1.0", ipam: { subnet: "198.18.0.0/24" } });
    if (!conf.ok) throw new Error(conf.error);
    for (const [id, ifname] of [
      ["keep", "eth0"],
      ["keep", "eth1"],
      ["gone", "eth0"],
    ] as const) {
      expect((await allocate(conf.value, store, id, ifname)).ok).toBe(true);
    }
    await collectGarbage(store, [{ containerID: "keep", ifname: "eth0" }]);
    expect(files()).toEqual(["198.18.0.2", "last_reserved_ip.0", "lock"]);
    expect(await store.getByID("keep", "eth0")).toEqual([ip("198.18.0.2")]);
    expect(await store.getByID("keep", "eth1")).toEqual([]);
    expect(readdirSync(indexDirOf(dir())).filter((n) => !AttachmentIndex.isBookkeeping(n))).toHaveLength(1);
    await collectGarbage(store, []);
    expect(files()).toEqual(["last_reserved_ip.0", "lock"]);
    expect(existsSync(indexDirOf(dir()))).toBe(false); // no file of ours is left
  });
});

describe("the attachment index", () => {
  test("is only a hint: an entry whose file the reference removed or reassigned is ignored", async () => {
    await store.reserve("a", "eth0", ip("198.18.0.2"), "0");
    expect(await store.getByID("a", "eth0")).toEqual([ip("198.18.0.2")]);
    rmSync(join(dir(), "198.18.0.2"));
    writeFileSync(join(dir(), "198.18.0.2"), "b\r\neth0");
    expect(await store.getByID("a", "eth0")).toEqual([]);
  });

  test("never holds a file the reference could read as a reservation", async () => {
    await store.reserve("a", "eth0", ip("198.18.0.2"), "0");
    for (const name of readdirSync(indexDirOf(dir())).filter((n) => !AttachmentIndex.isBookkeeping(n))) {
      expect(parseIP(name)).toBeUndefined();
      const content = readFileSync(join(indexDirOf(dir()), name), "utf8").trim();
      expect(content).not.toBe("a\r\neth0");
      expect(content).not.toBe("a");
    }
  });
});

test("two stores on one directory exclude each other through the lock", async () => {
  const other = openDiskStore(root, "net1");
  await store.lock();
  let got = false;
  const waiting = other.lock().then(() => (got = true));
  await Bun.sleep(30);
  expect(got).toBe(false);
  await store.unlock();
  await waiting;
  expect(got).toBe(true);
  await other.unlock();
  await other.close();
});

describe("the index's freshness guard", () => {
  const index = () => new AttachmentIndex(dir());

  test("stays fresh across our own reservations and releases, so lookups need no scan", async () => {
    expect(await store.getByID("a", "eth0")).toEqual([]); // an empty store: scanned, nothing of ours written
    expect(existsSync(indexDirOf(dir()))).toBe(false);
    await store.reserve("a", "eth0", ip("198.18.0.2"), "0");
    expect((await store.getByID("a", "eth0")).map(formatIP)).toEqual(["198.18.0.2"]); // scans once
    expect(index().isFresh(dir())).toBe(true);
    await store.reserve("b", "eth0", ip("198.18.0.3"), "0");
    expect(index().isFresh(dir())).toBe(true);
    await store.releaseIP(ip("198.18.0.3"), "b", "eth0");
    expect(index().isFresh(dir())).toBe(true);
  });

  test("leaves no file of ours once the last attachment is released (issue 14)", async () => {
    await store.reserve("a", "eth0", ip("198.18.0.2"), "0");
    expect(await store.getByID("a", "eth0")).toHaveLength(1);
    expect(existsSync(indexDirOf(dir()))).toBe(true);
    await store.releaseByID("a", "eth0");
    expect(existsSync(indexDirOf(dir()))).toBe(false);
    expect(existsSync(join(dir(), "..", ".tscni-index"))).toBe(false);
  });

  test("goes stale when another implementation reserves, and the lookup then sees that reservation", async () => {
    await store.reserve("other", "eth0", ip("198.18.0.2"), "0");
    expect(await store.getByID("dup", "eth0")).toEqual([]);
    expect(index().isFresh(dir())).toBe(true);
    // What the reference host-local does: an exclusive create of `<ip>` with `<cid>\r\n<ifname>`.
    writeFileSync(join(dir(), "198.18.0.7"), "dup\r\neth0", { mode: 0o600, flag: "wx" });
    expect(index().isFresh(dir())).toBe(false);
    expect((await store.getByID("dup", "eth0")).map(formatIP)).toEqual(["198.18.0.7"]);
    expect(index().isFresh(dir())).toBe(true);
  });

  test("lets releaseByID drop only the released attachment while fresh, and scan once another implementation wrote", async () => {
    expect(await store.getByID("a", "eth0")).toEqual([]); // the first lookup scans once
    await store.reserve("a", "eth0", ip("198.18.0.2"), "0");
    await store.reserve("a", "eth0", ip("198.18.0.3"), "0");
    await store.reserve("b", "eth0", ip("198.18.0.4"), "0");
    expect((await store.getByID("b", "eth0")).map(formatIP)).toEqual(["198.18.0.4"]); // scans once
    expect(index().isFresh(dir())).toBe(true);
    await store.releaseByID("a", "eth0");
    expect(index().isFresh(dir())).toBe(true);
    expect(existsSync(join(dir(), "198.18.0.2")) || existsSync(join(dir(), "198.18.0.3"))).toBe(false);
    expect((await store.getByID("b", "eth0")).map(formatIP)).toEqual(["198.18.0.4"]);
    // The reference reserves for "b" too: the index goes stale and DEL finds that file by scanning.
    writeFileSync(join(dir(), "198.18.0.8"), "b\r\neth0", { mode: 0o600, flag: "wx" });
    await store.releaseByID("b", "eth0");
    expect(existsSync(join(dir(), "198.18.0.4")) || existsSync(join(dir(), "198.18.0.8"))).toBe(false);
    expect(await store.getByID("b", "eth0")).toEqual([]);
  });

  test("is never fresh while a legacy ID-only file exists, so lookups keep finding it", async () => {
    writeFileSync(join(dir(), "198.18.0.9"), "old-cid", { mode: 0o600 });
    expect((await store.getByID("old-cid", "eth0")).map(formatIP)).toEqual(["198.18.0.9"]);
    expect(index().isFresh(dir())).toBe(false);
    expect((await store.getByID("old-cid", "eth1")).map(formatIP)).toEqual(["198.18.0.9"]);
  });
});
