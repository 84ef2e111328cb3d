import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingFile, skipUnless } from "@tscni/spec/testing";
import { runConformance } from "../runner.ts";
import { HOST_LOCAL_MAINTENANCE_CASES } from "./host-local-maintenance.ts";

const ours = new URL("../../../dist/bin/host-local", import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), "tscni-conf-hl-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A host-local that answers GC and STATUS with `script` and hands every other command to ours. */
function mutant(name: string, script: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "host-local"),
    `#!/bin/sh\ncase "$CNI_COMMAND" in GC|STATUS) ${script};; esac\nexec ${ours}\n`,
  );
  chmodSync(join(dir, "host-local"), 0o755);
  return dir;
}

async function statuses(dir: string): Promise<Record<string, string>> {
  const rows = await runConformance({ dir, cases: HOST_LOCAL_MAINTENANCE_CASES, plugins: ["host-local"], root: false });
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}

describe.skipIf(skipUnless("the host-local GC and STATUS cases", missingFile(ours, "npm run build")))(
  "the host-local GC and STATUS cases can fail",
  () => {
    test("a host-local whose GC and STATUS do nothing fails the GC cases and skips the extension ones", async () => {
      expect(await statuses(mutant("no-op", "exit 0"))).toEqual({
        "hl.gc": "fail",
        "hl.gc-libcni-keys": "fail",
        "hl.gc-legacy": "fail",
        "hl.status": "pass",
        "hl.status-full": "skip",
        "hl.status-data-dir": "skip",
      });
    }, 60_000);

    test("a host-local reporting a wrong code or printing on a ready STATUS fails the STATUS cases", async () => {
      const wrong = await statuses(mutant("code-51", `echo '{"code":51,"msg":"degraded"}'; exit 1`));
      expect([wrong["hl.status"], wrong["hl.status-full"], wrong["hl.status-data-dir"]]).toEqual([
        "fail",
        "fail",
        "fail",
      ]);
      const chatty = await statuses(mutant("chatty", "echo ready; exit 0"));
      expect([chatty["hl.status"], chatty["hl.status-full"], chatty["hl.gc"]]).toEqual(["fail", "fail", "fail"]);
    }, 60_000);
  },
);
