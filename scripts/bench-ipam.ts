/**
 * Benchmark (not a test): host-local allocation time on the disk store as a /16 fills.
 * Prints the median time per allocation around the 1st, 1,000th, 5,000th and 10,000th
 * address, which should stay flat: a reservation is one exclusive create, and the
 * duplicate check reads the attachment index instead of every reservation file. For
 * contrast it also times one full read of the store, what upstream's GetByID does on
 * every allocation.
 *
 *   bun scripts/bench-ipam.ts [count=10000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allocate, loadIPAMConfig } from "@tscni/ipam";
import { openDiskStore } from "@tscni/ipam/disk";

const count = Number(process.argv[2] ?? 10000);
const marks = [1, 1000, 5000, 10000].filter((m) => m <= count);
const root = mkdtempSync(join(tmpdir(), "tscni-bench-ipam-"));
const loaded = loadIPAMConfig({ name: "bench", cniVersion: "1.1.0", ipam: { subnet: "198.18.0.0/16", dataDir: root } });
if (!loaded.ok) throw new Error(loaded.error);
const store = openDiskStore(root, "bench");
const times: number[] = [];
try {
  for (let i = 1; i <= count; i++) {
    const t0 = Bun.nanoseconds();
    const got = await allocate(loaded.value, store, `container-${i}`, "eth0");
    times.push((Bun.nanoseconds() - t0) / 1e6);
    if (!got.ok) throw new Error(got.error);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  console.log(`host-local disk store, /16, ${count} allocations`);
  for (const m of marks) {
    // The window around the mark: 51 allocations (fewer at the edges).
    const window = times.slice(Math.max(0, m - 26), Math.min(times.length, m + 25));
    console.log(
      `  allocation ${String(m).padStart(6)}: median ${median(window).toFixed(3)} ms (window of ${window.length})`,
    );
  }
  const t0 = Bun.nanoseconds();
  await store.findByID("nobody", "eth0"); // a miss reads every reservation file
  console.log(
    `  for contrast, one full read of ${count} reservation files: ${((Bun.nanoseconds() - t0) / 1e6).toFixed(1)} ms`,
  );
} finally {
  await store.close();
  rmSync(root, { recursive: true, force: true });
}
