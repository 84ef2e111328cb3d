import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { namespacePool } from "./namespace-pool.ts";
import { createThrowawayNetns, deleteThrowawayNetns } from "./throwaway.ts";

const skip = skipUnless("the namespace pool test", firstMissing(missingRoot(), missingTools(["ip"])));

describe.skipIf(skip)("namespacePool", () => {
  test("dropAll deletes what is left and refuses to make more afterwards", () => {
    const pool = namespacePool("kpool");
    const [a, b] = [pool.make(), pool.make({ loopbackUp: false })];
    expect(a.name).toStartWith(`tscni-kpool-${process.pid}-`);
    pool.drop(a);
    expect(existsSync(a.path)).toBe(false);
    expect(existsSync(b.path)).toBe(true);
    pool.dropAll();
    expect(existsSync(b.path)).toBe(false);
    expect(() => pool.make()).toThrow(/closed/);
  });

  test("sweepDead deletes the namespaces of a process that is gone and keeps a live one's", () => {
    const dead = Bun.spawnSync(["true"]).pid;
    const gone = createThrowawayNetns("x", { name: `tscni-kpool-${dead}-leftover` });
    const mine = createThrowawayNetns("x", { name: `tscni-kpool-${process.pid}-mine` });
    try {
      namespacePool("kpool").sweepDead();
      expect(existsSync(gone.path)).toBe(false);
      expect(existsSync(mine.path)).toBe(true);
    } finally {
      deleteThrowawayNetns(gone);
      deleteThrowawayNetns(mine);
    }
  });
});
