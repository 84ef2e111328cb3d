import { describe, expect, test } from "bun:test";
import { type FdCalls, readAll, writeAll } from "./fd-io.ts";

/** A scripted fd: reads hand out `input` `max` bytes at a time, writes take `max`; each call first fails with `errnos` in turn. */
function fakeFd(input: Uint8Array, max: number, errnos: number[] = []): { c: FdCalls; written: number[] } {
  let at = 0;
  let errno = 0;
  const written: number[] = [];
  const failing = (): boolean => {
    const e = errnos.shift();
    if (e === undefined) return false;
    errno = e;
    return true;
  };
  const c: FdCalls = {
    read: (_fd, buf, len) => {
      if (failing()) return -1;
      const n = Math.min(len, max, input.length - at);
      buf.set(input.subarray(at, at + n));
      at += n;
      return n;
    },
    write: (_fd, buf, len) => {
      if (failing()) return -1;
      const n = Math.min(len, max);
      written.push(...buf.subarray(0, n));
      return n;
    },
    errno: () => errno,
  };
  return { c, written };
}

describe("a one-shot process's streams through libc", () => {
  test("readAll joins short reads past its first buffer and rides out EINTR and EAGAIN", () => {
    const input = new Uint8Array(200_000).map((_, i) => i % 251);
    const { c } = fakeFd(input, 40_000, [4, 11, 4]);
    expect(readAll(c, 0)).toEqual(input);
  });

  test("readAll of an empty stdin is empty", () => {
    expect(readAll(fakeFd(new Uint8Array(0), 10).c, 0).length).toBe(0);
  });

  test("writeAll writes every byte through partial writes and interruptions", () => {
    const text = `{"msg":"${"é".repeat(1000)}"}`;
    const f = fakeFd(new Uint8Array(0), 7, [11, 4]);
    writeAll(f.c, 1, text);
    expect(new TextDecoder().decode(new Uint8Array(f.written))).toBe(text);
  });

  test("an errno other than EINTR and EAGAIN fails the call", () => {
    expect(() => readAll(fakeFd(new Uint8Array(3), 1, [9]).c, 0)).toThrow("read: errno 9");
    expect(() => writeAll(fakeFd(new Uint8Array(0), 1, [32]).c, 1, "x")).toThrow("write: errno 32");
  });
});
