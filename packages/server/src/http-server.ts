/**
 * A bounded HTTP/1.1 server on a unix socket (issue 16 item 3). Bun.serve cannot answer
 * before it has read a whole request, and buffers bodies up to 128 MB, so the daemon
 * reads its requests itself over `Bun.listen`: headers within a time limit and a size
 * limit, a body only when `Content-Length` is within the cap (a larger one is refused
 * before a byte of it is read), a limit on open connections, and every refusal answered
 * with a CNI error object and the HTTP status that says why. One request per connection.
 */
import type { Socket, UnixSocketListener } from "bun";
import type { DaemonLimits } from "./limits.ts";
import type { DaemonMetrics, RefusalReason } from "./metrics.ts";
import { parseHead, type RequestHead } from "./http-head.ts";
import { concat, errorResponse, refusalBytes, serialize } from "./http-response.ts";

export { errorResponse } from "./http-response.ts";

/** What the server needs: where, its bounds, its counters, the handler and the refusal log. */
export interface BoundedServerOptions {
  readonly unix: string;
  readonly limits: DaemonLimits;
  readonly metrics: DaemonMetrics;
  readonly handle: (req: Request) => Promise<Response>;
  readonly onRefuse?: (reason: RefusalReason, status: number, msg: string) => void;
}

interface Conn {
  phase: "head" | "body" | "busy" | "done";
  /** When it opened (`performance.now()`). */
  opened: number;
  head: Uint8Array[];
  headBytes: number;
  request?: RequestHead;
  body?: Uint8Array;
  got: number;
  timer?: ReturnType<typeof setTimeout>;
  unsent?: Uint8Array;
}

/** A connection still sending its headers is evicted by a newer one only after this long. */
const EVICT_AFTER_MS = 1_000;

const encoder = new TextEncoder();
const CRLFCRLF = encoder.encode("\r\n\r\n");

function indexOfSeq(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Listens on `options.unix` with the bounds of `options.limits`.
 *
 * @example const listener = listenBounded({ unix, limits: daemonLimits(), metrics, handle });
 */
export function listenBounded(options: BoundedServerOptions): UnixSocketListener<Conn> {
  const { limits, metrics } = options;
  // Connections still sending their headers, oldest first (a Set keeps insertion order).
  const pending = new Set<Socket<Conn>>();
  // How long a connection may send its headers before a newer one may evict it.
  const evictAfterMs = Math.min(EVICT_AFTER_MS, limits.headerTimeoutMs);

  const write = (s: Socket<Conn>, bytes: Uint8Array): void => {
    const n = s.write(bytes);
    if (n < bytes.length && n >= 0) s.data.unsent = bytes.subarray(n);
    // Closed outright, not just our write side: after end() the socket stays readable, so a
    // refused 100 MB upload would still be read to its end and a stalled client held open.
    // On a unix socket what was written stays readable by the peer after the close.
    else s.terminate();
  };
  const respond = async (s: Socket<Conn>, res: Response): Promise<void> => {
    clearTimeout(s.data.timer);
    if (s.data.phase === "done") return;
    s.data.phase = "done";
    write(s, await serialize(res));
  };
  const refuse = (s: Socket<Conn>, reason: RefusalReason, status: number, code: number, msg: string): void => {
    pending.delete(s);
    clearTimeout(s.data.timer);
    if (s.data.phase === "done") return;
    s.data.phase = "done";
    metrics.refuse(reason, code);
    options.onRefuse?.(reason, status, msg);
    write(s, refusalBytes(status, code, msg));
  };
  const arm = (s: Socket<Conn>, ms: number, reason: RefusalReason, what: string, wait = ms): void => {
    clearTimeout(s.data.timer);
    const due = performance.now() + wait;
    const phase = s.data.phase;
    s.data.timer = setTimeout(() => {
      // A loop blocked by in-process kernel work (netlink is synchronous) runs expired
      // timers before the socket reads that waited with them: defer the verdict past the
      // poll phase, and when the loop itself was late, grant the client the time it lost.
      setImmediate(() => {
        if (s.data.phase !== phase) return;
        const late = performance.now() - due;
        if (late > 100) return arm(s, ms, reason, what, late);
        refuse(s, reason, 408, 5, `timed out reading the request ${what} after ${ms} ms`);
      });
    }, wait);
  };
  const dispatch = (s: Socket<Conn>): void => {
    clearTimeout(s.data.timer);
    s.data.phase = "busy";
    const head = s.data.request!;
    const body = s.data.body ?? new Uint8Array();
    s.data.body = undefined;
    let req: Request;
    try {
      const withBody = head.method !== "GET" && head.method !== "HEAD";
      req = new Request(`http://localhost${head.target}`, {
        method: head.method,
        headers: head.headers,
        ...(withBody ? { body } : {}),
      });
    } catch (err) {
      refuse(s, "malformed", 400, 6, `malformed request: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    options.handle(req).then(
      (res) => respond(s, res),
      (err: unknown) => respond(s, errorResponse(500, 999, err instanceof Error ? err.message : String(err))),
    );
  };
  const onHead = (s: Socket<Conn>, bytes: Uint8Array, end: number): void => {
    pending.delete(s);
    const parsed = parseHead(new TextDecoder().decode(bytes.subarray(0, end)));
    if (typeof parsed === "string") return refuse(s, "malformed", 400, 6, parsed);
    if (parsed.chunked)
      return refuse(s, "malformed", 411, 5, "chunked request bodies are not accepted; send Content-Length");
    if (parsed.contentLength > limits.maxBodyBytes) {
      return refuse(
        s,
        "body-too-large",
        413,
        5,
        `request body of ${parsed.contentLength} bytes is over the limit of ${limits.maxBodyBytes} bytes`,
      );
    }
    s.data.request = parsed;
    s.data.head = [];
    const rest = bytes.subarray(end + CRLFCRLF.length, end + CRLFCRLF.length + parsed.contentLength);
    s.data.body = new Uint8Array(parsed.contentLength);
    s.data.body.set(rest);
    s.data.got = rest.length;
    if (s.data.got >= parsed.contentLength) return dispatch(s);
    s.data.phase = "body";
    arm(s, limits.bodyTimeoutMs, "body-timeout", "body");
  };

  return Bun.listen<Conn>({
    unix: options.unix,
    socket: {
      open(s) {
        s.data = { phase: "head", head: [], headBytes: 0, got: 0, opened: performance.now() };
        metrics.connections++;
        // Over the budget of connections still sending headers, or at the connection cap,
        // the oldest of those makes room once it has had a second: a new connection may be
        // a whole call, the oldest has had the most time. In a burst of fresh ones nobody
        // is evicted (a valid call whose bytes are not read yet must not be) and the
        // newcomer is let in over the budget: only the connection cap refuses.
        const crowded = pending.size >= limits.maxPendingHeaders || metrics.connections > limits.maxConnections;
        const oldest = crowded ? pending.values().next().value : undefined;
        const evict = oldest !== undefined && s.data.opened - oldest.data.opened >= evictAfterMs;
        if (evict)
          refuse(
            oldest,
            "pending-headers-full",
            408,
            5,
            `timed out reading the request headers: ${limits.maxPendingHeaders} connections were still sending theirs`,
          );
        // The evicted one may be counted until its close event: its place is this one's.
        if (metrics.connections > limits.maxConnections && !evict) {
          refuse(
            s,
            "too-many-connections",
            503,
            11,
            `the CNI daemon has ${limits.maxConnections} connections open; try again later`,
          );
          return;
        }
        pending.add(s);
        arm(s, limits.headerTimeoutMs, "header-timeout", "headers");
      },
      data(s, chunk) {
        const c = s.data;
        if (c.phase === "head") {
          c.head.push(new Uint8Array(chunk));
          c.headBytes += chunk.length;
          const bytes = concat(c.head, c.headBytes);
          const end = indexOfSeq(bytes, CRLFCRLF);
          if (end >= 0 && end <= limits.maxHeaderBytes) return onHead(s, bytes, end);
          if (c.headBytes > limits.maxHeaderBytes)
            refuse(s, "headers-too-large", 431, 5, `request headers over the limit of ${limits.maxHeaderBytes} bytes`);
          else c.head = [bytes];
          return;
        }
        if (c.phase === "body" && c.body !== undefined) {
          const take = Math.min(chunk.length, c.body.length - c.got);
          c.body.set(chunk.subarray(0, take), c.got);
          c.got += take;
          if (c.got >= c.body.length) dispatch(s);
        }
        // Busy or done: anything more is ignored (one request per connection).
      },
      drain(s) {
        const rest = s.data.unsent;
        if (rest === undefined) return;
        s.data.unsent = undefined;
        write(s, rest);
      },
      close(s) {
        pending.delete(s);
        clearTimeout(s.data.timer);
        s.data.phase = "done"; // a call still running answers no one
        s.data.body = undefined;
        s.data.head = [];
        metrics.connections--;
      },
      error(s) {
        clearTimeout(s.data.timer);
      },
    },
  });
}
