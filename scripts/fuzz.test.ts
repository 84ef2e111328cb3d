import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planShards, shardSeed } from "./fuzz.ts";

test("one campaign seed gives every shard its own seed, the same on every run", () => {
  const a = planShards({ seed: 15, cases: 1_000_000, shards: 10 });
  expect(a).toEqual(planShards({ seed: 15, cases: 1_000_000, shards: 10 }));
  expect(new Set(a.map((s) => s.seed)).size).toBe(a.length);
  expect(a.reduce((n, s) => n + s.cases, 0)).toBe(1_000_000);
  expect(a.filter((s) => s.target === "config").length).toBe(10);
  expect(planShards({ seed: 16, cases: 1_000_000, shards: 10 }).map((s) => s.seed)).not.toEqual(a.map((s) => s.seed));
  expect(shardSeed(15, 0, 0)).toBeGreaterThanOrEqual(0);
});

test("the campaign script runs a tiny campaign: a line per shard, the table, and its summary file", () => {
  const out = mkdtempSync(join(tmpdir(), "tscni-fuzz-campaign-"));
  try {
    const r = Bun.spawnSync(
      [
        process.execPath,
        "scripts/fuzz.ts",
        "--seed",
        "3",
        "--cases",
        "200",
        "--shards",
        "1",
        "--no-plugins",
        "--out",
        out,
      ],
      { cwd: join(import.meta.dir, ".."), stdout: "pipe", stderr: "pipe" },
    );
    const text = r.stdout.toString();
    expect({ exit: r.exitCode, err: r.exitCode === 0 ? "" : r.stderr.toString() }).toEqual({ exit: 0, err: "" });
    expect(text).toMatch(/\[1\/2\] (config|convert) shard 0 \(seed \d+\): 100 cases/);
    expect(text).toMatch(/^config +100 +\d+ +0 /m);
    expect(text).toMatch(/^convert +100 +\d+ +0 /m);
    expect(text).toContain("no failures in our code");
    const summary = JSON.parse(readFileSync(join(out, "campaign.json"), "utf8")) as { seed: number; shards: unknown[] };
    expect(summary.seed).toBe(3);
    expect(summary.shards.length).toBe(2);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
