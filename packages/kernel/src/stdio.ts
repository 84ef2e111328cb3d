/**
 * A one-shot process's standard streams through libc: read(2) and write(2) from the one
 * bun:ffi libc loader, so neither node:fs (3 to 10 ms of a start) nor `Bun.stdin` and
 * `process.stdout` (a stream each, ~1 ms) load on the plugin path (docs/PERFORMANCE.md).
 * The one implementation for every plugin and verb of the binary (cli `main.ts`) and for
 * `cni-shim` (server `shim.ts`). A failure is an Error with node:fs's `errno` (negative)
 * and `syscall`, not node:fs's whole error (`fs-errors.ts`): its table, in a chunk of its
 * own in the binary, cost the shim ten page faults a call for an error that never comes.
 */
import { type Libc, libcNow } from "./libc.ts";

/** The libc calls the streams need (a fake in tests splits and interrupts them). */
export type FdCalls = Pick<Libc, "read" | "write" | "errno">;

const EINTR = 4;
const EAGAIN = 11;
const CHUNK = 1 << 16;

/** A failed read or write: "read: errno 9", with node:fs's `errno` (negative) and `syscall`. */
function streamError(errno: number, syscall: string): Error {
  return Object.assign(new Error(`${syscall}: errno ${errno}`), { errno: -errno, syscall });
}

/**
 * A call's result, again after EINTR, and after a short sleep on a non-blocking fd with
 * nothing to read or no room to write yet (EAGAIN: a runtime may hand over a pipe it set
 * non-blocking); any other failure throws.
 */
function blocking(c: FdCalls, syscall: string, run: () => number): number {
  for (;;) {
    const n = run();
    if (n >= 0) return n;
    const errno = c.errno();
    if (errno === EAGAIN) Bun.sleepSync(1);
    else if (errno !== EINTR) throw streamError(errno, syscall);
  }
}

/**
 * Reads `fd` to its end into one buffer that doubles when full (the read that finds the
 * end reuses it: a fresh 64 KiB per read was page faults for nothing).
 */
export function readAll(c: FdCalls, fd: number): Uint8Array {
  let buf = new Uint8Array(CHUNK);
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

/** Writes all of `text` to `fd`, through short writes. */
export function writeAll(c: FdCalls, fd: number, text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; ) {
    const rest = bytes.subarray(at);
    at += blocking(c, "write", () => c.write(fd, rest, rest.length));
  }
}

/** A process's stdin, stdout and stderr as the binary's `CommandIO` and the shim's `ShimIO` take them. */
export interface StandardStreams {
  readonly readStdin: () => Promise<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * This process's fds 0, 1 and 2 through `c` (this process's libc unless a test passes a fake).
 *
 * @example const io = { argv, env: process.env, ...standardStreams() };
 */
export function standardStreams(c: FdCalls = libcNow()): StandardStreams {
  return {
    readStdin: async () => readAll(c, 0),
    stdout: (text) => writeAll(c, 1, text),
    stderr: (text) => writeAll(c, 2, text),
  };
}
