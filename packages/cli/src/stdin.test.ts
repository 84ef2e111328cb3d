import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readToEnd } from "./stdin.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-stdin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const never = async (): Promise<Uint8Array> => {
  throw new Error("rest must not be called");
};

function fileFd(name: string, content: Uint8Array | string): number {
  const path = join(dir, name);
  writeFileSync(path, content);
  return openSync(path, "r");
}

describe("readToEnd", () => {
  test("reads a file descriptor to its end, across several reads", async () => {
    const big = Uint8Array.from({ length: 200_000 }, (_, i) => i % 251);
    const fd = fileFd("big", big);
    try {
      expect(await readToEnd(fd, readSync, never)).toEqual(big);
    } finally {
      closeSync(fd);
    }
  });

  test("reads nothing from an empty input", async () => {
    const fd = fileFd("empty", "");
    try {
      expect((await readToEnd(fd, readSync, never)).length).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  test("joins what it read with what the fallback reads once the fd would block", async () => {
    const replies: (Uint8Array | "EAGAIN")[] = [new TextEncoder().encode('{"name":'), "EAGAIN"];
    const fake = (_fd: number, buf: Uint8Array): number => {
      const next = replies.shift();
      if (next === "EAGAIN") throw Object.assign(new Error("resource temporarily unavailable"), { code: "EAGAIN" });
      if (next === undefined) throw new Error("read after the fallback");
      buf.set(next);
      return next.length;
    };
    const got = await readToEnd(0, fake, async () => new TextEncoder().encode('"n"}'));
    expect(new TextDecoder().decode(got)).toBe('{"name":"n"}');
  });

  test("passes on read errors other than EAGAIN", async () => {
    const failing = (): number => {
      throw Object.assign(new Error("bad file descriptor"), { code: "EBADF" });
    };
    await expect(readToEnd(0, failing, never)).rejects.toThrow("bad file descriptor");
  });
});
