import { describe, expect, test } from "bun:test";
import { CommandGate } from "./gate.ts";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("CommandGate", () => {
  test("runs shared work side by side", async () => {
    const gate = new CommandGate();
    const log: string[] = [];
    const a = deferred();
    const first = gate.shared(async () => {
      log.push("a start");
      await a.promise;
      log.push("a end");
    });
    const second = gate.shared(async () => void log.push("b"));
    await second;
    expect(log).toEqual(["a start", "b"]);
    a.resolve();
    await first;
  });

  test("makes a GC wait for the ADDs in flight and holds back ADDs that arrive during it (GC-8)", async () => {
    const gate = new CommandGate();
    const log: string[] = [];
    const add = deferred();
    const gcBody = deferred();
    const inflight = gate.shared(async () => {
      await add.promise;
      log.push("add 1 done");
    });
    const gc = gate.exclusive(async () => {
      log.push("gc start");
      await gcBody.promise;
      log.push("gc end");
    });
    const later = gate.shared(async () => void log.push("add 2"));
    await Bun.sleep(5);
    expect(log).toEqual([]);
    add.resolve();
    await inflight;
    await Bun.sleep(5);
    expect(log).toEqual(["add 1 done", "gc start"]);
    gcBody.resolve();
    await Promise.all([gc, later]);
    expect(log).toEqual(["add 1 done", "gc start", "gc end", "add 2"]);
  });

  test("keeps working after a run fails", async () => {
    const gate = new CommandGate();
    await expect(gate.exclusive(async () => Promise.reject(new Error("gc failed")))).rejects.toThrow("gc failed");
    await expect(gate.shared(async () => Promise.reject(new Error("add failed")))).rejects.toThrow("add failed");
    expect(await gate.shared(async () => 1)).toBe(1);
  });
});
