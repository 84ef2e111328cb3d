import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { captureIO } from "../testing/capture-io.ts";
import { verb } from "./fuzz.ts";

const io = captureIO;

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A plugin dir with one shell-script plugin named `loopback` (a known type) of `body`. */
function pluginDir(body: string): string {
  dir = mkdtempSync(join(tmpdir(), "tscni-fzp-verb-"));
  writeFileSync(join(dir, "loopback"), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, "loopback"), 0o755);
  return dir;
}

describe("cni fuzz plugin, arguments", () => {
  test("--help explains the plugin target and fuzz --help names it", async () => {
    const c = io(["plugin", "--help"]);
    expect(await verb.run(c)).toBe(0);
    expect(c.out.join("")).toContain("usage: cni fuzz plugin DIR");
    const h = io(["--help"]);
    expect(await verb.run(h)).toBe(0);
    expect(h.out.join("")).toContain("cni fuzz plugin DIR");
  });

  test("a missing DIR, a missing directory and an absent plugin are usage errors", async () => {
    expect(await verb.run(io(["plugin"]))).toBe(2);
    expect(await verb.run(io(["plugin", "/nonexistent/tscni-dir"]))).toBe(2);
    const c = io(["plugin", pluginDir("exit 0"), "--plugins", "bridge"]);
    expect(await verb.run(c)).toBe(2);
    expect(c.err.join("")).toContain('no executable "bridge"');
  });
});

const skip = skipUnless(
  "cni fuzz plugin on the real kernel",
  firstMissing(missingRoot(), missingTools(["strace", "ip"])),
);

describe.skipIf(skip)("cni fuzz plugin in throwaway namespaces", () => {
  test("a plugin that exits 0 with an error is a failure: exit 1, a table, a replay file that replays", async () => {
    const d = pluginDir(`echo '{"code":7,"msg":"planted"}'`);
    const out = join(d, "out");
    const c = io(["plugin", d, "--seed", "3", "--cases", "3", "--timeout", "3000", "--out", out]);
    expect(await verb.run(c)).toBe(1);
    const text = c.out.join("");
    expect(text).toMatch(/^plugin\s+cases\s+signal\s+hang\s+trace/m);
    expect(text).toMatch(/^loopback\s+3\s/m);
    expect(text).toMatch(/3 cases in [\d.]+ s, [\d.]+ cases\/s, \d+ failing cases \(seed 3\)/);
    const files = readdirSync(out);
    expect(files.some((f) => f.startsWith("plugin-loopback-exit-mismatch-3-"))).toBe(true);
    const r = io(["replay", join(out, files.find((f) => f.includes("exit-mismatch")) ?? "")]);
    expect(await verb.run(r)).toBe(1);
    expect(r.out.join("")).toContain("fails: loopback exit-mismatch");
  }, 60_000);
});
