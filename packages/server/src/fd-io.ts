/**
 * A one-shot process's standard streams through libc (issue 11 item 2): the shim reads its
 * stdin and writes its stdout with read(2) and write(2) from the libc it loads anyway for
 * its socket, so node:fs (3 to 10 ms of a start, measured in docs/PERFORMANCE.md) never
 * loads on its path.
 */
import type { Libc } from "@tscni/kernel/libc";

/** The libc calls the streams need (a fake in tests splits and interrupts them). */
export type FdCalls = Pick<Libc, "read" | "write" | "errno">;

const EINTR = 4;
const EAGAIN = 11;

/** A call's result, again after EINTR, and after a short sleep on a non-blocking fd with nothing yet (EAGAIN). */
function blocking(c: FdCalls, what: string, run: () => number): number {
  for (;;) {
    const n = run();
    if (n >= 0) return n;
    const errno = c.errno();
    if (errno === EAGAIN) Bun.sleepSync(1);
    else if (errno !== EINTR) throw new Error(`${what}: errno ${errno}`);
  }
}

/** Reads `fd` to its end. */
export function readAll(c: FdCalls, fd: number): Uint8Array {
  let buf = new Uint8Array(1 << 16);
  let len = 0;
  for (;;) {
    if (len === buf.length) {
      const bigger = new Uint8Array(buf.length * 2);
      bigger.set(buf);
      buf = bigger;
    }
    const room = buf.subarray(len);
    const n = blocking(c, "read", () => c.read(fd, room, room.length));
    if (n === 0) return buf.subarray(0, len);
    len += n;
  }
}

/** Writes all of `text` to `fd`. */
export function writeAll(c: FdCalls, fd: number, text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; ) {
    const rest = bytes.subarray(at);
    at += blocking(c, "write", () => c.write(fd, rest, rest.length));
  }
}
