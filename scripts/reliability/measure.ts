/**
 * `bun run scripts/reliability/measure.ts [races]` (root): the real-kernel figures of
 * docs/RELIABILITY.md, ours (dist/bin) beside the reference v1.1.1 (/usr/lib/cni): the
 * same-container ADD/DEL race (issue 16 item 4) and DEL after a refused ADD (item 5).
 */
import { BIN_DIR } from "../e2e/harness.ts";
import { canUseNetns } from "../lib/netns.ts";
import { foreignInterface } from "./foreign.ts";
import { raceAddDel } from "./race.ts";

if (!canUseNetns()) {
  console.error("scripts/reliability/measure.ts needs root (network namespaces)");
  process.exit(2);
}
const races = Number(process.argv[2] ?? 40);
const sides = [
  ["tscni", BIN_DIR],
  ["reference v1.1.1", "/usr/lib/cni"],
] as const;
for (const step of [4, 1]) {
  for (const [name, dir] of sides) {
    const r = await raceAddDel(dir, races, step);
    console.log(
      `race (DEL ${step}ms steps) ${name}: ${r.liveWithFreeAddress}/${r.races} live interfaces with a free address, ${r.reservedWithoutInterface} reservations without interface, ${r.failedCalls} races with a failed call`,
    );
  }
}
for (const [name, dir] of sides) {
  for (const f of await foreignInterface(dir)) {
    console.log(
      `foreign ${f.plugin} ${name}: ADD exit ${f.addExit}, DEL exit ${f.delExit}, foreign interface ${f.foreignSurvived ? "kept" : "DELETED"}`,
    );
  }
}
