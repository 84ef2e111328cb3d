/**
 * Go's net/rpc over HTTP on a unix socket, as the reference's dhcp plugin and daemon use
 * it (`rpc.DialHTTP` / `rpc.HandleHTTP`): the client sends `CONNECT /_goRPC_ HTTP/1.0`,
 * the server answers `HTTP/1.0 200 Connected to Go RPC`, then both speak gob: a
 * Request header and the arguments, a Response header and the reply (an empty struct
 * when Response.Error is set). So our plugin works with the reference's daemon and the
 * reference's plugin with ours.
 */
import { GobDecoder, GobEncoder, type GobType } from "./gob.ts";
import { Empty, Request, Response } from "./rpc-types.ts";

const CONNECT = "CONNECT /_goRPC_ HTTP/1.0\n\n";
const CONNECTED = "HTTP/1.0 200 Connected to Go RPC\n\n";

function headerEnd(b: Uint8Array): number {
  for (let i = 0; i + 1 < b.length; i++) {
    if (b[i] === 10 && b[i + 1] === 10) return i + 2;
    if (b[i] === 13 && b[i + 1] === 10 && b[i + 2] === 13 && b[i + 3] === 10) return i + 4;
  }
  return -1;
}

/** Why a dial failed, in Go's words (`dial unix PATH: connect: ...`). */
export class DialError extends Error {}

/** One call: connects, sends `method(args)`, returns the decoded reply or throws with Response.Error. */
export async function rpcCall(socket: string, method: string, argsType: GobType, args: unknown): Promise<unknown> {
  const enc = new GobEncoder();
  const dec = new GobDecoder();
  let head = new Uint8Array(0);
  let connected = false;
  let settle: { ok: (v: unknown) => void; fail: (e: Error) => void } | undefined;
  const done = new Promise<unknown>((ok, fail) => (settle = { ok, fail }));
  let header: Record<string, unknown> | undefined;
  let sendCall = (): void => {};
  const onBytes = (b: Uint8Array): void => {
    if (!connected) {
      head = Uint8Array.from([...head, ...b]);
      const end = headerEnd(head);
      if (end < 0) return;
      const status = new TextDecoder().decode(head.subarray(0, end)).split(/\r?\n/)[0] ?? "";
      if (!status.includes("200 Connected to Go RPC"))
        return settle?.fail(new Error(`unexpected HTTP response: ${status.replace(/^HTTP\/\d\.\d /, "")}`));
      connected = true;
      // Only now: Go's server hijacks the connection and drops what its HTTP reader buffered.
      sendCall();
      b = head.subarray(end);
    }
    dec.push(b);
    try {
      header ??= dec.next() as Record<string, unknown> | undefined;
      if (header === undefined) return;
      const body = dec.next();
      if (body === undefined) return;
      const err = header.Error;
      if (typeof err === "string" && err !== "") settle?.fail(new Error(err));
      else settle?.ok(body);
    } catch (e) {
      settle?.fail(e as Error);
    }
  };
  let sock: Awaited<ReturnType<typeof Bun.connect>>;
  try {
    sock = await Bun.connect({
      unix: socket,
      socket: {
        data: (_s, b) => onBytes(new Uint8Array(b)),
        close: () => settle?.fail(new Error("unexpected EOF")),
        error: (_s, e) => settle?.fail(e),
      },
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new DialError(
      `dial unix ${socket}: connect: ${code === "ENOENT" ? "no such file or directory" : code === "EACCES" ? "permission denied" : "connection refused"}`,
    );
  }
  try {
    const call = Uint8Array.from([
      ...enc.encode(Request, { ServiceMethod: method, Seq: 0 }),
      ...enc.encode(argsType, args),
    ]);
    sendCall = () => void sock.write(call);
    sock.write(CONNECT);
    return await done;
  } finally {
    sock.end();
  }
}

/** A method the server answers: the decoded arguments in, the reply out (or a thrown error). */
export type RpcMethod = { reply: GobType; run: (args: Record<string, unknown>) => Promise<unknown> };

/** Serves Go net/rpc over HTTP CONNECT on a unix socket until stopped. */
export function serveRpc(socket: string, methods: Readonly<Record<string, RpcMethod>>): { stop(): void } {
  interface Conn {
    head: Uint8Array;
    connected: boolean;
    dec: GobDecoder;
    enc: GobEncoder;
    header?: Record<string, unknown>;
  }
  const listener = Bun.listen<Conn>({
    unix: socket,
    socket: {
      open(s) {
        s.data = { head: new Uint8Array(0), connected: false, dec: new GobDecoder(), enc: new GobEncoder() };
      },
      data(s, raw) {
        const c = s.data;
        let b: Uint8Array = new Uint8Array(raw);
        if (!c.connected) {
          c.head = Uint8Array.from([...c.head, ...b]);
          const end = headerEnd(c.head);
          if (end < 0) return;
          const line = new TextDecoder().decode(c.head.subarray(0, end)).split(/\r?\n/)[0] ?? "";
          if (!line.startsWith("CONNECT ")) {
            s.end(
              "HTTP/1.0 405 Method Not Allowed\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n405 must CONNECT\n",
            );
            return;
          }
          c.connected = true;
          s.write(CONNECTED);
          b = c.head.subarray(end);
        }
        c.dec.push(b);
        for (;;) {
          let body: unknown;
          try {
            c.header ??= c.dec.next() as Record<string, unknown> | undefined;
            if (c.header === undefined) return;
            body = c.dec.next();
          } catch {
            s.end();
            return;
          }
          if (body === undefined) return;
          const header = c.header;
          c.header = undefined;
          const name = String(header.ServiceMethod ?? "");
          const seq = Number(header.Seq ?? 0);
          const m = methods[name];
          const reply = (error: string, type: GobType, value: unknown): void => {
            s.write(
              Uint8Array.from([
                ...c.enc.encode(Response, { ServiceMethod: name, Seq: seq, Error: error }),
                ...c.enc.encode(type, value),
              ]),
            );
          };
          if (m === undefined) {
            reply(`rpc: can't find method ${name}`, Empty, {});
            continue;
          }
          m.run(body as Record<string, unknown>).then(
            (v) => reply("", m.reply, v),
            (e: Error) => reply(e.message === "" ? "unknown error" : e.message, Empty, {}),
          );
        }
      },
    },
  });
  return { stop: () => listener.stop(true) };
}
