/**
 * The firewall lock within one process (lock.ts): a holder keeps it across awaits while
 * its tools run, so every holder of the same path in this process queues behind it
 * before opening the file; flock would otherwise block, for good, the one thread the
 * first holder needs (the daemon runs many transactions at once, each with its own
 * firewall). The scenarios run in a child (lock-queue.child.ts), killed if it hangs.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "tscni-lockq-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("holders in one process take turns across awaits, one or many lock objects, failures included", async () => {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "lock-queue.child.ts"), dir], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill(9), 10_000);
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  expect({ code, err, hung: child.signalCode === "SIGKILL" }).toEqual({ code: 0, err: "", hung: false });
  expect(JSON.parse(out)).toEqual({
    turns: { values: ["a", "b", "c"], events: ["a in", "a out", "b in", "b out", "c in", "c out"] },
    objects: ["first in", "first out", "second in"],
    failure: ["restore refused", "next ran"],
    immediate: true,
  });
}, 30_000);
