import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FRAMEWORK_CASES } from "./cases/framework.ts";
import { formatReport, summarize } from "./report.ts";
import { runConformance } from "./runner.ts";
import type { Row } from "./types.ts";

const root = mkdtempSync(join(tmpdir(), "tscni-conf-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A plugin directory holding one shell-script "loopback". */
function pluginDir(name: string, script: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "loopback"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, "loopback"), 0o755);
  return dir;
}

const VERSION_OK = `if [ "$CNI_COMMAND" = VERSION ]; then echo '{"cniVersion":"1.1.0","supportedVersions":["0.4.0","1.0.0","1.1.0"]}'; exit 0; fi`;

describe("the runner judges plugins, and its cases can fail", () => {
  test("a plugin that succeeds at everything fails every framework case", async () => {
    const rows = await runConformance({ dir: pluginDir("yes-man", "echo '{}'"), cases: FRAMEWORK_CASES, root: false });
    expect(rows.length).toBe(FRAMEWORK_CASES.length);
    for (const r of rows) {
      expect(r.status).toBe("fail");
      expect(r.reason).not.toBe("");
    }
  });

  test("a plugin with the wrong error codes fails the code checks with a reason naming both codes", async () => {
    const dir = pluginDir("wrong-codes", `${VERSION_OK}\necho '{"code":999,"msg":"nope"}'; exit 1`);
    const rows = await runConformance({ dir, cases: FRAMEWORK_CASES, root: false });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get("fw.version-reply")?.status).toBe("pass");
    expect(byId.get("fw.error-on-stdout")?.status).toBe("pass");
    expect(byId.get("fw.env-missing")).toMatchObject({ status: "fail", reason: 'expected code 4, got 999 ("nope")' });
    expect(byId.get("fw.invalid-json")?.status).toBe("fail");
  });

  test("a plugin that prints its error on stderr fails the error-object checks", async () => {
    const dir = pluginDir("stderr", `${VERSION_OK}\necho '{"code":4,"msg":"x"}' >&2; exit 1`);
    const rows = await runConformance({ dir, cases: FRAMEWORK_CASES, root: false });
    expect(rows.find((r) => r.id === "fw.env-missing")?.reason).toStartWith("stdout is not JSON");
  });

  test("plugins missing from the directory are skipped, with the reason", async () => {
    const rows = await runConformance({
      dir: pluginDir("only-lo", "exit 1"),
      cases: FRAMEWORK_CASES.slice(0, 1),
      plugins: ["host-local"],
    });
    expect(rows).toEqual([]);
    const named = await runConformance({
      dir: join(root, "only-lo"),
      cases: [{ id: "x", rule: "R", plugin: "bridge", run: async () => {} }],
    });
    expect(named[0]).toMatchObject({ status: "skip", reason: expect.stringContaining('no executable "bridge"') });
  });

  test("kernel cases are skipped when not root", async () => {
    const rows = await runConformance({
      dir: join(root, "only-lo"),
      cases: [{ id: "k", rule: "R", plugin: "loopback", needsRoot: true, run: async () => {} }],
      root: false,
    });
    expect(rows[0]).toMatchObject({ status: "skip", reason: expect.stringContaining("needs root") });
  });

  test("a directory that does not exist is an error", async () => {
    await expect(runConformance({ dir: join(root, "nope"), cases: FRAMEWORK_CASES })).rejects.toThrow(
      'plugin directory "',
    );
  });
});

describe("formatReport", () => {
  const rows: Row[] = [
    { id: "fw.a", plugin: "loopback", rule: "ENV-2", status: "pass", reason: "" },
    { id: "fw.bb", plugin: "host-local", rule: "VN-4", status: "fail", reason: "expected code 1, got 999" },
    { id: "lo.c", plugin: "loopback", rule: "LO-2", status: "skip", reason: "needs root" },
  ];

  test("prints one aligned row per case and the summary line", () => {
    const text = formatReport(rows);
    expect(text).toContain("fw.bb  host-local  VN-4   fail    expected code 1, got 999");
    expect(text).toContain("\n1 passed, 1 failed\n1 skipped\n");
    expect(text.split("\n")[0]).toStartWith("CASE   PLUGIN      RULE   RESULT  REASON");
  });

  test("summarize counts rows by status", () => {
    expect(summarize(rows)).toEqual({ passed: 1, failed: 1, skipped: 1 });
  });
});
