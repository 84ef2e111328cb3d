import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureIO } from "../testing/capture-io.ts";
import { verb } from "./fuzz.ts";

const io = captureIO;

describe("cni fuzz", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("runs a target for a number of cases with a seed, prints progress and a summary, exits 0 when nothing fails", async () => {
    dir = mkdtempSync(join(tmpdir(), "tscni-fuzz-"));
    const c = io(["convert", "--seed", "5", "--cases", "300", "--out", dir]);
    expect(await verb.run(c)).toBe(0);
    expect(c.err.join("")).toContain("convert: 300 cases");
    expect(c.out.join("")).toMatch(/^convert: 300 cases in [\d.]+ s, 0 failures \(seed 5\)\n$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("replay judges a saved case again: a case that holds says so", async () => {
    dir = mkdtempSync(join(tmpdir(), "tscni-fuzz-"));
    const file = join(dir, "case.json");
    writeFileSync(
      file,
      JSON.stringify({
        target: "convert",
        input: { result: { cniVersion: "1.0.0" }, to: "0.4.0", valid: true, trip: false },
      }),
    );
    const c = io(["replay", file]);
    expect(await verb.run(c)).toBe(0);
    expect(c.out.join("")).toBe("holds\n");
  });

  test("a usage error names what is wrong and exits 2", async () => {
    const c = io(["nope"]);
    expect(await verb.run(c)).toBe(2);
    expect(c.err.join("")).toContain('unknown target "nope"');
    const d = io(["config", "--cases", "x"]);
    expect(await verb.run(d)).toBe(2);
    expect(d.err.join("")).toContain('--cases needs a whole number, not "x"');
  });
});
