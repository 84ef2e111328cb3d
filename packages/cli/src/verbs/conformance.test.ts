import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandIO } from "../io.ts";
import { parseConformanceArgs, verb } from "./conformance.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-conf-verb-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io: CommandIO = {
    argv,
    env: {},
    readStdin: async () => new Uint8Array(),
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
  };
  return { code: await verb.run(io), stdout, stderr };
}

describe("cni conformance", () => {
  test("parses the plugin directory and the filters", () => {
    expect(parseConformanceArgs(["--plugin", "loopback", "--case", "fw.", "/opt/cni/bin"])).toEqual({
      dir: "/opt/cni/bin",
      plugins: ["loopback"],
      cases: ["fw."],
    });
    expect(parseConformanceArgs([])).toBe("expected exactly one plugin directory");
    expect(parseConformanceArgs(["--nope", "x"])).toBe('unknown option "--nope"');
  });

  test("a usage error exits 2 with the help", async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("usage: cni conformance");
  });

  test("prints the table and exits 1 when a case fails", async () => {
    writeFileSync(join(dir, "loopback"), "#!/bin/sh\necho '{}'\n");
    chmodSync(join(dir, "loopback"), 0o755);
    const r = await run(["--case", "fw.version", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^CASE +PLUGIN +RULE +RESULT +REASON\n/);
    expect(r.stdout).toContain("fw.version-reply");
    expect(r.stdout).toContain("0 passed, 1 failed");
  });

  test("a directory that does not exist exits 2 with the reason", async () => {
    const r = await run([join(dir, "missing")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("does not exist");
  });
});
