import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstMissing, missingFile, missingTools } from "./machine.ts";

const gate = new URL("./prerequisites.ts", import.meta.url).pathname;

/** Runs a one-file suite gated on a missing file, with or without CI=true. */
function runGated(ci: boolean): { code: number; out: string } {
  const dir = mkdtempSync(join(tmpdir(), "tscni-gate-"));
  try {
    writeFileSync(
      join(dir, "gated.test.ts"),
      `import { describe, test } from "bun:test";
import { missingFile, skipUnless } from ${JSON.stringify(gate)};
describe.skipIf(skipUnless("the gated suite", missingFile("/nonexistent/tscni-bin", "npm run build")))("gated", () => {
  test("runs", () => {});
});\n`,
    );
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", NO_COLOR: "1" };
    if (ci) env.CI = "true";
    const r = Bun.spawnSync([process.execPath, "test", "gated.test.ts"], {
      cwd: dir,
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a suite whose prerequisite is missing skips outside CI and says why", () => {
  const { code, out } = runGated(false);
  expect(code).toBe(0);
  expect(out).toContain("skipping the gated suite: missing /nonexistent/tscni-bin (npm run build)");
  expect(out).toMatch(/^\s*1 skip$/m);
});

test("under CI=true the same suite fails with a test naming the missing piece", () => {
  const { code, out } = runGated(true);
  expect(code).toBe(1);
  expect(out).toContain("CI=true and the gated suite cannot run: missing /nonexistent/tscni-bin (npm run build)");
  expect(out).toMatch(/^\s*1 fail$/m);
});

test("missingTools names each missing tool with the Debian package that provides it", () => {
  expect(missingTools(["sh"])).toBeUndefined();
  expect(missingTools(["sh", "tscni-no-such-tool"])).toBe(
    "missing tools on PATH: tscni-no-such-tool (apt-get install tscni-no-such-tool)",
  );
});

test("firstMissing keeps the first reason and missingFile names the file and the fix", () => {
  expect(firstMissing(undefined, missingFile("/nonexistent/x", "make it"), "later")).toBe(
    "missing /nonexistent/x (make it)",
  );
  expect(firstMissing(undefined, missingFile("/", "never"))).toBeUndefined();
});
