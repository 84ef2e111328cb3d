/**
 * Issue 16 item 5 on the real kernel with the compiled binary: after an ADD refused
 * because CNI_IFNAME existed, DEL leaves that interface alone and still succeeds.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BIN_DIR } from "../e2e/harness.ts";
import { canUseNetns } from "../lib/netns.ts";
import { foreignInterface } from "./foreign.ts";

const run = canUseNetns() && existsSync(join(BIN_DIR, "bridge")) ? describe : describe.skip;

run("DEL after an ADD refused for a taken CNI_IFNAME", () => {
  test("bridge and ptp leave the pre-existing interface in place and succeed", async () => {
    expect(await foreignInterface(BIN_DIR)).toEqual([
      { plugin: "bridge", addExit: 1, delExit: 0, foreignSurvived: true },
      { plugin: "ptp", addExit: 1, delExit: 0, foreignSurvived: true },
    ]);
  });
});
