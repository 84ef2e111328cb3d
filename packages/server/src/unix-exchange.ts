/**
 * One HTTP/1.1 exchange over a unix socket, synchronous, through libc (issue 11 item 2: the
 * shim's path as short as it can be). `Bun.connect` costs a one-shot process ~4 ms over a
 * bare start (its socket layer's first use, an event-loop turn per step, a thread); blocking
 * socket, connect, send and recv through the one bun:ffi libc loader (`@tscni/kernel/libc`)
 * cost ~1 ms. The shim has nothing else to do while it waits, so blocking is free. It blocks
 * the JS thread, so it is for the one-shot shim only, never for a process that serves.
 */
import type { Libc } from "@tscni/kernel/libc";

/** The libc calls the exchange makes (a fake in tests splits reads and writes). */
export type SocketCalls = Pick<Libc, "socket" | "connect" | "send" | "recv" | "close" | "errno">;

/** An HTTP answer: its status and body. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/** A failed system call: `code` is the errno's name (ENOENT, ECONNREFUSED), as node:net names it. */
export class SocketError extends Error {
  /** The errno's name, or `E<number>` for one without a name here. */
  readonly code: string;
  constructor(call: string, errno: number) {
    const code = ERRNO_NAMES[errno] ?? `E${errno}`;
    super(`${call}: ${code}`);
    this.code = code;
  }
}

const AF_UNIX = 1;
const SOCK_STREAM = 1;
const SOCK_CLOEXEC = 0o2000000;
const MSG_NOSIGNAL = 0x4000; // a daemon that closes early must not kill the shim with SIGPIPE
const EINTR = 4;
const SUN_PATH_MAX = 108; // sockaddr_un's sun_path, NUL included

const ERRNO_NAMES: Readonly<Record<number, string>> = {
  2: "ENOENT",
  11: "EAGAIN",
  13: "EACCES",
  20: "ENOTDIR",
  32: "EPIPE",
  36: "ENAMETOOLONG",
  104: "ECONNRESET",
  110: "ETIMEDOUT",
  111: "ECONNREFUSED",
};

/** sockaddr_un for `path` (family, then the NUL-terminated path). */
function sockaddrUn(path: string): Uint8Array {
  const bytes = new TextEncoder().encode(path);
  if (bytes.length >= SUN_PATH_MAX) throw new SocketError("connect", 36);
  const addr = new Uint8Array(2 + SUN_PATH_MAX);
  new DataView(addr.buffer).setUint16(0, AF_UNIX, true);
  addr.set(bytes, 2);
  return addr;
}

/** Runs a call again while a signal interrupts it (EINTR). */
function retrying(c: SocketCalls, call: string, run: () => number): number {
  for (;;) {
    const n = run();
    if (n >= 0) return n;
    const errno = c.errno();
    if (errno !== EINTR) throw new SocketError(call, errno);
  }
}

/** The body's length from the head, when it declares one (the daemon always does). */
function contentLength(head: string): number | undefined {
  const m = /\r\ncontent-length:[ \t]*(\d+)[ \t]*\r\n/i.exec(`${head}\r\n`);
  return m === null ? undefined : Number(m[1]);
}

/** Splits a complete answer into status and body; throws when it is not HTTP. */
function parseAnswer(bytes: Uint8Array): HttpAnswer {
  const text = new TextDecoder().decode(bytes); // not Buffer: node:buffer would load (~0.6 ms)
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
  const split = text.indexOf("\r\n\r\n");
  if (status === null || split < 0) throw new Error("the CNI daemon's answer is not HTTP");
  return { status: Number(status[1]), body: text.slice(split + 4) };
}

/** The end of the head (index of the blank line) in what was read so far, or -1. */
function headEnd(buf: Uint8Array, len: number): number {
  for (let i = 3; i < len; i++)
    if (buf[i] === 10 && buf[i - 1] === 13 && buf[i - 2] === 10 && buf[i - 3] === 13) return i - 3;
  return -1;
}

/**
 * POSTs `body` to `path` on the unix socket and reads the answer: up to its
 * content-length, else to the end of the stream. Throws a {@link SocketError} when the
 * socket cannot be reached or breaks (`code` ENOENT, ECONNREFUSED, ...), or an Error when
 * the answer is not HTTP.
 */
export function exchangeUnix(c: SocketCalls, socketPath: string, path: string, body: string): HttpAnswer {
  const bodyBytes = new TextEncoder().encode(body);
  const head = new TextEncoder().encode(
    `POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${bodyBytes.length}\r\nconnection: close\r\n\r\n`,
  );
  const request = new Uint8Array(head.length + bodyBytes.length);
  request.set(head);
  request.set(bodyBytes, head.length);
  const addr = sockaddrUn(socketPath);
  const fd = retrying(c, "socket", () => c.socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  try {
    retrying(c, "connect", () => c.connect(fd, addr, addr.length));
    for (let at = 0; at < request.length; ) {
      const rest = request.subarray(at);
      at += retrying(c, "send", () => c.send(fd, rest, rest.length, MSG_NOSIGNAL));
    }
    let buf = new Uint8Array(1 << 16);
    let len = 0;
    let want: number | undefined; // the whole answer's length, once the head is in
    while (want === undefined || len < want) {
      if (len === buf.length) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      const room = buf.subarray(len);
      const n = retrying(c, "recv", () => c.recv(fd, room, room.length, 0));
      if (n === 0) break; // the daemon closed: the answer is what came
      len += n;
      if (want === undefined) {
        const end = headEnd(buf, len);
        const declared = end < 0 ? undefined : contentLength(new TextDecoder("latin1").decode(buf.subarray(0, end)));
        if (declared !== undefined) want = end + 4 + declared;
      }
    }
    return parseAnswer(buf.subarray(0, len));
  } finally {
    c.close(fd);
  }
}
