/**
 * The suite judging our own compiled binary: every case on the plugins in dist/bin
 * (built by `bun run scripts/build.ts` when missing). TSCNI_PLUGIN_DIR points it at
 * another directory, e.g. the reference Go plugins in /opt/cni/bin.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { missingRoot, skipUnless } from "@tscni/spec/testing";
import { ALL_CASES } from "./cases/index.ts";
import { formatReport, summarize } from "./report.ts";
import { runConformance } from "./runner.ts";

const repo = new URL("../..", import.meta.url).pathname;
const dir = process.env.TSCNI_PLUGIN_DIR ?? join(repo, "dist/bin");
// The kernel cases (lo.*) need root: outside CI they are left out with a warning, under
// CI=true that is a failing test naming what is missing (issue 10).
const root = !skipUnless("conformance's kernel cases (lo.*)", missingRoot());

test(`the plugins in ${dir} pass every conformance case`, async () => {
  if (process.env.TSCNI_PLUGIN_DIR === undefined && !existsSync(join(dir, "loopback"))) {
    const build = Bun.spawnSync([process.execPath, "run", "scripts/build.ts"], {
      cwd: repo,
      stdout: "inherit",
      stderr: "inherit",
    });
    expect(build.exitCode).toBe(0);
  }
  const rows = await runConformance({ dir, cases: ALL_CASES, root });
  const report = formatReport(rows);
  const { failed, passed } = summarize(rows);
  if (failed > 0) console.log(report);
  expect(failed).toBe(0);
  expect(passed).toBeGreaterThan(0);
  // Our binary has these plugins; their cases must have run, not been skipped as missing.
  expect(rows.filter((r) => r.reason.startsWith("no executable"))).toEqual([]);
  // Ours speaks 1.1.0 and has the tscni extensions (hl.status-full): only root may skip a case.
  if (process.env.TSCNI_PLUGIN_DIR === undefined)
    expect(rows.filter((r) => r.status === "skip" && !r.reason.startsWith("needs root"))).toEqual([]);
}, 300_000);
