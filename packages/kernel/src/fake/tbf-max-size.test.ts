import { describe, expect, test } from "bun:test";
import { HOST, TC_H_ROOT, type KernelOp } from "../index.ts";
import { FakeKernel } from "./fake-kernel.ts";
import { tbfMaxSize } from "./tbf-max-size.ts";

describe("tbfMaxSize", () => {
  test("a buffer worth exactly one byte at the rate holds one byte", () => {
    expect(tbfMaxSize({ rate: 1000, limit: 1000, buffer: 15625 })).toBe(1);
  });

  test("a buffer one tick short of one byte holds nothing (Linux refuses it)", () => {
    expect(tbfMaxSize({ rate: 1000, limit: 1000, buffer: 15624 })).toBe(0);
    expect(tbfMaxSize({ rate: 1_000_000, limit: 1000, buffer: 15 })).toBe(0);
  });

  test("the burst the bandwidth plugin plans for 1400-byte packets holds them", () => {
    expect(tbfMaxSize({ rate: 1_000_000, limit: 1000, buffer: 22000 })).toBe(1408);
  });

  test("a rate of 0 holds nothing", () => {
    expect(tbfMaxSize({ rate: 0, limit: 1000, buffer: 1_000_000 })).toBe(0);
  });

  test("the buffer is capped at 2^32-1 ns and the result at 2^32-1 bytes, as in sch_tbf.c", () => {
    // 2^32 ticks would be 2^38 ns; capped to 4.29 s of sending at 1 B/s.
    expect(tbfMaxSize({ rate: 1, limit: 1, buffer: 2 ** 32 })).toBe(4);
    expect(tbfMaxSize({ rate: 2 ** 40, limit: 1, buffer: 2 ** 30 })).toBe(0xffff_ffff);
  });
});

describe("the fake kernel's tbf", () => {
  const tbf = (buffer: number): KernelOp => ({
    op: "qdisc.add",
    ns: HOST,
    dev: "br0",
    kind: "tbf",
    handle: 0x10000,
    parent: TC_H_ROOT,
    tbf: { rate: 1000, limit: 1000, buffer },
  });

  test("is refused as invalid when its buffer cannot hold one byte, as Linux refuses it (EINVAL)", async () => {
    const k = new FakeKernel();
    await k.apply([{ op: "bridge.add", ns: HOST, name: "br0" }]);
    await expect(k.apply([tbf(15624)])).rejects.toMatchObject({ kind: "invalid", opIndex: 0 });
    expect(await k.qdiscs(HOST, "br0")).toEqual([]);
    await k.apply([tbf(15625)]);
    expect((await k.qdiscs(HOST, "br0")).map((q) => q.kind)).toEqual(["tbf"]);
  });
});
