import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { libcNow } from "./libc.ts";
import { type FdCalls, readAll, standardStreams, writeAll } from "./stdio.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-stdio-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Scripted fds: reads hand out `input` `max` bytes at a time, writes take `max` and are
 * kept per fd; each call first fails with `errnos` in turn.
 */
function fakeFds(input: Uint8Array, max: number, errnos: number[] = []) {
  let at = 0;
  let errno = 0;
  const written = new Map<number, number[]>();
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
    write: (fd, buf, len) => {
      if (failing()) return -1;
      const n = Math.min(len, max);
      written.set(fd, [...(written.get(fd) ?? []), ...buf.subarray(0, n)]);
      return n;
    },
    errno: () => errno,
  };
  const text = (fd: number): string => new TextDecoder().decode(new Uint8Array(written.get(fd) ?? []));
  return { c, text };
}

describe("a one-shot process's streams through libc", () => {
  test("readAll joins short reads past its first buffer and rides out EINTR and EAGAIN", () => {
    const input = new Uint8Array(200_000).map((_, i) => i % 251);
    const { c } = fakeFds(input, 40_000, [4, 11, 4]);
    expect(readAll(c, 0)).toEqual(input);
  });

  test("readAll of an empty stdin is empty", () => {
    expect(readAll(fakeFds(new Uint8Array(0), 10).c, 0).length).toBe(0);
  });

  test("writeAll writes every byte through partial writes and interruptions", () => {
    const text = `{"msg":"${"é".repeat(1000)}"}`;
    const f = fakeFds(new Uint8Array(0), 7, [11, 4]);
    writeAll(f.c, 1, text);
    expect(f.text(1)).toBe(text);
  });

  test("an errno other than EINTR and EAGAIN fails the call, naming the call and the errno", () => {
    expect(() => readAll(fakeFds(new Uint8Array(3), 1, [9]).c, 0)).toThrow("read: errno 9");
    let caught: unknown;
    try {
      writeAll(fakeFds(new Uint8Array(0), 1, [28]).c, 1, "x");
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ message: "write: errno 28", syscall: "write", errno: -28 });
  });

  test("the standard streams read fd 0 and write stdout to fd 1 and stderr to fd 2", async () => {
    const f = fakeFds(new TextEncoder().encode('{"cniVersion":"1.1.0"}'), 5);
    const io = standardStreams(f.c);
    expect(new TextDecoder().decode(await io.readStdin())).toBe('{"cniVersion":"1.1.0"}');
    io.stdout("result");
    io.stderr("log");
    expect([f.text(1), f.text(2)]).toEqual(["result", "log"]);
  });
});

describe("the streams on real file descriptors", () => {
  test("readAll reads a file to its end, across several reads", () => {
    const big = Uint8Array.from({ length: 200_000 }, (_, i) => i % 251);
    writeFileSync(join(dir, "big"), big);
    const fd = openSync(join(dir, "big"), "r");
    try {
      expect(readAll(libcNow(), fd)).toEqual(big);
    } finally {
      closeSync(fd);
    }
  });

  test("writeAll writes text to a file as UTF-8", () => {
    const fd = openSync(join(dir, "out"), "w");
    try {
      writeAll(libcNow(), fd, "héllo\n");
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(join(dir, "out"), "utf8")).toBe("héllo\n");
  });

  test("a closed fd fails with EBADF", () => {
    const fd = openSync(join(dir, "big"), "r");
    closeSync(fd);
    expect(() => readAll(libcNow(), fd)).toThrow("read: errno 9");
  });
});
