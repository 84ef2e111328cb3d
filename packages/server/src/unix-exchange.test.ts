import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { libcNow } from "@tscni/kernel/libc";
import { standInDaemon } from "./testing/stand-in.ts";
import { exchangeUnix, type SocketCalls, SocketError } from "./unix-exchange.ts";

/** A scripted socket: sends take at most `sendMax` bytes, reads hand out `answer` in `readMax` pieces. */
function fakeSocket(opts: {
  answer: string;
  sendMax?: number;
  readMax?: number;
  connectErrno?: number;
  recvErrno?: number;
  interruptEach?: boolean;
  /** What recv does once the answer is all read: end the stream, or fail the test (a read too many). */
  afterAnswer?: "eof" | "throw";
}): { c: SocketCalls; sent: () => string; closed: () => number } {
  const out: number[] = [];
  const answer = new TextEncoder().encode(opts.answer);
  let at = 0;
  let errno = 0;
  let closed = 0;
  let interrupted = false;
  // Every call is interrupted once before it goes through when `interruptEach` (EINTR).
  const interrupt = (): boolean => {
    if (opts.interruptEach !== true) return false;
    interrupted = !interrupted;
    if (interrupted) errno = 4;
    return interrupted;
  };
  const c: SocketCalls = {
    socket: () => 7,
    connect: (fd) => {
      expect(fd).toBe(7);
      if (opts.connectErrno === undefined) return 0;
      errno = opts.connectErrno;
      return -1;
    },
    send: (_fd, buf, len) => {
      if (interrupt()) return -1;
      const n = Math.min(len, opts.sendMax ?? len);
      out.push(...buf.subarray(0, n));
      return n;
    },
    recv: (_fd, buf, len) => {
      if (interrupt()) return -1;
      if (opts.recvErrno !== undefined) {
        errno = opts.recvErrno;
        return -1;
      }
      if (at === answer.length) {
        if (opts.afterAnswer === "throw") throw new Error("read past the declared length");
        return 0;
      }
      const n = Math.min(len, opts.readMax ?? len, answer.length - at);
      buf.set(answer.subarray(at, at + n));
      at += n;
      return n;
    },
    close: () => ((closed += 1), 0),
    errno: () => errno,
  };
  return { c, sent: () => Buffer.from(out).toString("utf8"), closed: () => closed };
}

const ok = (body: string): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;

describe("exchangeUnix against a scripted socket", () => {
  test("sends the whole request through partial writes and interrupted calls", () => {
    const f = fakeSocket({ answer: ok("{}"), sendMax: 7, interruptEach: true });
    const body = JSON.stringify({ env: { CNI_COMMAND: "ADD" }, config: "é".repeat(100) });
    expect(exchangeUnix(f.c, "/run/x.sock", "/cni", body)).toEqual({ status: 200, body: "{}" });
    const length = Buffer.byteLength(body);
    expect(f.sent()).toBe(
      `POST /cni HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n${body}`,
    );
    expect(f.closed()).toBe(1);
  });

  test("joins an answer split over many reads, a multi-byte character across two of them", () => {
    const body = `{"result":{"msg":"${"é".repeat(40_000)}"}}`; // larger than the first buffer
    const f = fakeSocket({ answer: ok(body), readMax: 5, afterAnswer: "throw" });
    expect(exchangeUnix(f.c, "/run/x.sock", "/cni", "{}")).toEqual({ status: 200, body });
  });

  test("stops reading at the declared content-length without waiting for the close", () => {
    const f = fakeSocket({ answer: ok('{"a":1}'), readMax: 3, afterAnswer: "throw" });
    expect(exchangeUnix(f.c, "/s", "/cni", "{}").body).toBe('{"a":1}');
  });

  test("reads to the end of the stream when the answer declares no length", () => {
    const f = fakeSocket({ answer: "HTTP/1.1 500 Oops\r\n\r\nboom", readMax: 2 });
    expect(exchangeUnix(f.c, "/s", "/cni", "{}")).toEqual({ status: 500, body: "boom" });
  });

  test("names the connect error by its errno and still closes the socket", () => {
    for (const [errno, code] of [
      [2, "ENOENT"],
      [111, "ECONNREFUSED"],
      [99, "E99"],
    ] as const) {
      const f = fakeSocket({ answer: "", connectErrno: errno });
      expect(() => exchangeUnix(f.c, "/s", "/cni", "{}")).toThrow(SocketError);
      try {
        exchangeUnix(f.c, "/s", "/cni", "{}");
      } catch (err) {
        expect((err as SocketError).code).toBe(code);
      }
      expect(f.closed()).toBe(2);
    }
  });

  test("fails on a connection reset mid-answer and on an answer that is not HTTP", () => {
    expect(() => exchangeUnix(fakeSocket({ answer: "", recvErrno: 104 }).c, "/s", "/cni", "{}")).toThrow(
      "recv: ECONNRESET",
    );
    expect(() => exchangeUnix(fakeSocket({ answer: "SSH-2.0\r\n" }).c, "/s", "/cni", "{}")).toThrow(
      "the CNI daemon's answer is not HTTP",
    );
    expect(() => exchangeUnix(fakeSocket({ answer: "" }).c, "/s", "/cni", "{}")).toThrow("not HTTP");
  });

  test("refuses a socket path longer than sockaddr_un holds", () => {
    const f = fakeSocket({ answer: ok("{}") });
    expect(() => exchangeUnix(f.c, `/${"x".repeat(200)}`, "/cni", "{}")).toThrow("ENAMETOOLONG");
  });
});

describe("exchangeUnix on a real unix socket", () => {
  const dir = mkdtempSync(join(tmpdir(), "tscni-exchange-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("sends a 300 kB body to a server in another process and reads its answer", async () => {
    const daemon = await standInDaemon(join(dir, "echo.sock"), 400, "echo");
    try {
      const big = "x".repeat(300_000);
      expect(exchangeUnix(libcNow(), daemon.socketPath, "/cni", big)).toEqual({ status: 400, body: "got 300000" });
    } finally {
      await daemon.stop();
    }
  });

  test("fails with ENOENT when no socket exists and ECONNREFUSED when nothing listens on it", () => {
    const code = (path: string): string => {
      try {
        exchangeUnix(libcNow(), path, "/cni", "{}");
      } catch (err) {
        return err instanceof SocketError ? err.code : String(err);
      }
      return "answered";
    };
    expect(code(join(dir, "none.sock"))).toBe("ENOENT");
    // A unix socket bound by a process that is gone: the file stays, nobody listens.
    const stale = join(dir, "stale.sock");
    const c = libcNow();
    const fd = c.socket(1, 1, 0);
    const addr = new Uint8Array(110);
    addr[0] = 1;
    addr.set(new TextEncoder().encode(stale), 2);
    expect(c.bind(fd, addr, addr.length)).toBe(0);
    c.close(fd);
    expect(code(stale)).toBe("ECONNREFUSED");
    writeFileSync(join(dir, "plain"), "");
    expect(code(join(dir, "plain"))).toBe("ECONNREFUSED");
  });
});
