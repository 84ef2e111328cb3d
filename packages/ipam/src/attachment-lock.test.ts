import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachmentLockPath, withAttachmentLock } from "./attachment-lock.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), "tscni-lock-"));
  dirs.push(d);
  return d;
}
const key = { network: "net", containerID: "c1", ifName: "eth0" };

describe("withAttachmentLock", () => {
  test("runs two holders of one attachment one after the other, never interleaved", async () => {
    const dir = scratch();
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} in`);
      await Bun.sleep(20);
      log.push(`${name} out`);
    };
    await Promise.all([
      withAttachmentLock(dir, key, step("a")),
      withAttachmentLock(dir, key, step("b")),
      withAttachmentLock(dir, key, step("c")),
    ]);
    for (let i = 0; i < log.length; i += 2) expect(log[i + 1]).toBe(log[i]!.replace(" in", " out"));
  });

  test("lets different attachments run at the same time", async () => {
    const dir = scratch();
    let inside = 0;
    let most = 0;
    const hold = async () => {
      most = Math.max(most, ++inside);
      await Bun.sleep(30);
      inside--;
    };
    await Promise.all([withAttachmentLock(dir, key, hold), withAttachmentLock(dir, { ...key, ifName: "eth1" }, hold)]);
    expect(most).toBe(2);
  });

  test("leaves no lock file behind and releases the lock when the holder throws", async () => {
    const dir = scratch();
    await expect(withAttachmentLock(dir, key, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(existsSync(attachmentLockPath(dir, key))).toBe(false);
    expect(await withAttachmentLock(dir, key, async () => 7)).toBe(7);
    expect(readdirSync(dir)).toEqual([]);
  });
});
