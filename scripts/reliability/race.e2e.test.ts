/**
 * Issue 16 item 4 on the real kernel with the compiled binary: 40 overlapping ADD/DEL
 * pairs of the same attachment, plugins exec'd directly as a foreign runtime does, leave
 * no live interface whose address is free (LC-2, §1.9; the lock of shared/serialise.ts).
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BIN_DIR } from "../e2e/harness.ts";
import { canUseNetns } from "../lib/netns.ts";
import { raceAddDel } from "./race.ts";

const root = canUseNetns();
const built = existsSync(join(BIN_DIR, "bridge"));
if (!root) console.warn("scripts/reliability: not root, skipping the same-container race");
else if (!built) console.warn("scripts/reliability: dist/bin/bridge missing: run `npm run build`");
const run = root && built ? describe : describe.skip;

run("overlapping ADD and DEL of one attachment", () => {
  test("40 races leave no live interface whose address is free, and every call succeeds", async () => {
    const report = await raceAddDel(BIN_DIR, 40);
    expect(report).toEqual({ races: 40, liveWithFreeAddress: 0, reservedWithoutInterface: 0, failedCalls: 0 });
  });
});
