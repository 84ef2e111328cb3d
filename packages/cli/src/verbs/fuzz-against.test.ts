import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureIO } from "../testing/capture-io.ts";
import { verb } from "./fuzz.ts";

const io = captureIO;

// A command that refuses every request: it disagrees with every result we produce.
const REFUSES = `sed 's/.*/{"error":"no"}/'`;

describe("cni fuzz convert --against CMD", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("a disagreeing command is reported, its minimal case saved with the command, and replay asks it again", async () => {
    dir = mkdtempSync(join(tmpdir(), "tscni-fuzz-against-"));
    const c = io([
      "convert",
      "--against",
      REFUSES,
      "--versions",
      "0.4.0,1.0.0",
      "--seed",
      "3",
      "--cases",
      "60",
      "--out",
      dir,
    ]);
    expect(await verb.run(c)).toBe(1);
    const out = c.out.join("");
    expect(out).toMatch(/^DISAGREE convert "(0\.4\.0|1\.0\.0)" -> "[^"]*": ours result, theirs error \(no\)\n/);
    expect(out).toMatch(/convert --against: 60 cases in [\d.]+ s, \d+ disagreements \(seed 3\)\n$/);
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThan(0);
    const file = join(dir, files[0] ?? "");
    const saved = JSON.parse(readFileSync(file, "utf8")) as { against: string; versions: string[]; failure: string };
    expect(saved.against).toBe(REFUSES);
    expect(saved.versions).toEqual(["0.4.0", "1.0.0"]);
    const r = io(["replay", file]);
    expect(await verb.run(r)).toBe(1);
    expect(r.out.join("")).toBe(`fails: ${saved.failure}\n`);
    // The same case against a command that now refuses it the way we do holds.
    writeFileSync(file, JSON.stringify({ ...saved, input: { result: "not a result", to: "1.0.0" } }));
    const h = io(["replay", file]);
    expect(await verb.run(h)).toBe(0);
    expect(h.out.join("")).toBe("holds\n");
  });

  test("--versions takes only known versions and goes with --against", async () => {
    const a = io(["convert", "--against", "cat", "--versions", "0.4.0,2.0.0"]);
    expect(await verb.run(a)).toBe(2);
    expect(a.err.join("")).toContain('not "0.4.0,2.0.0"');
    const b = io(["convert", "--versions", "0.4.0"]);
    expect(await verb.run(b)).toBe(2);
    expect(b.err.join("")).toContain("--versions goes with --against");
  });

  test("--help documents --against, the line protocol and --versions", async () => {
    const h = io(["--help"]);
    expect(await verb.run(h)).toBe(0);
    const text = h.out.join("");
    expect(text).toContain("--against CMD");
    expect(text).toContain('{"result": <result JSON>, "to": "<version>"}');
    expect(text).toContain("--versions 0.1.0,0.2.0,0.3.0,0.3.1,0.4.0,1.0.0");
  });
});
