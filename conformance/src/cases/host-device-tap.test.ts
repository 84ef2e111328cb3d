/**
 * The host-device and tap cases can fail: the reference host-device v1.1.1 fails DEL of a
 * device already gone (its `failed to find "eth0"`), and a tap whose DEL does nothing
 * fails the add-del case. Needs root (the cases make namespaces) and a build.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstMissing, missingFile, missingRoot, skipUnless } from "@tscni/spec/testing";
import { runConformance } from "../runner.ts";
import { HOST_DEVICE_CASES } from "./host-device.ts";
import { TAP_CASES } from "./tap.ts";

const ours = new URL("../../../dist/bin/tap", import.meta.url).pathname;
const reference = "/usr/lib/cni/host-device";
const root = mkdtempSync(join(tmpdir(), "tscni-conf-hdtap-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function statuses(dir: string, plugin: string, cases: typeof TAP_CASES): Promise<Record<string, string>> {
  const rows = await runConformance({ dir, cases, plugins: [plugin], root: true });
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}

const skip = skipUnless(
  "the host-device and tap cases",
  firstMissing(missingRoot(), missingFile(ours, "npm run build")),
);

describe.skipIf(skip)("the host-device and tap cases can fail", () => {
  test.skipIf(!existsSync(reference))(
    "the reference host-device fails only the idempotent DEL",
    async () => {
      expect(await statuses("/usr/lib/cni", "host-device", HOST_DEVICE_CASES)).toEqual({
        "hd.missing-device": "pass",
        "hd.no-selector": "pass",
        "hd.del-idempotent": "fail",
        "hd.del-no-netns": "pass",
      });
    },
    60_000,
  );

  test("a tap whose DEL does nothing fails the add-del case", async () => {
    const dir = join(root, "no-del");
    mkdirSync(dir);
    writeFileSync(join(dir, "tap"), `#!/bin/sh\ncase "$CNI_COMMAND" in DEL) exit 0;; esac\nexec ${ours}\n`);
    chmodSync(join(dir, "tap"), 0o755);
    expect((await statuses(dir, "tap", TAP_CASES))["tap.add-del"]).toBe("fail");
  }, 60_000);
});
