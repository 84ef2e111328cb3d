/**
 * The shim plugin (`cni-shim`): put in `CNI_PATH`, it forwards its environment and stdin
 * to the CNI daemon over a unix socket and prints what the daemon answers as a CNI plugin
 * would (BRIEF seed design 3). It runs on the plugin path: it imports only its own side
 * of the wire (`shim-wire.ts`: no valibot) and, as its own process ({@link runProcess}),
 * one synchronous HTTP exchange through libc (`unix-exchange.ts`: no event loop, no
 * `Bun.connect`, no node:fs); run in process by a runtime, the asynchronous `post-unix.ts`.
 */
import { libcNow } from "@tscni/kernel/libc";
import { standardStreams } from "@tscni/kernel/stdio";
import { postUnix } from "./post-unix.ts";
import { decodeShimResponse, encodeRequest } from "./shim-wire.ts";
import { exchangeUnix, type HttpAnswer, type SocketCalls } from "./unix-exchange.ts";
import type { WireError } from "./wire.ts";

// Constants of wire.ts, repeated: importing it would load valibot on the plugin path.
const CNI_ENDPOINT = "/cni";
const DEFAULT_SOCKET_PATH = "/run/tscni/tscni.sock";

/** The streams and environment of the shim (the shape of the binary's `CommandIO`). */
export interface ShimIO {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readStdin: () => Promise<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Code 11, "try again later" (§4.2): the daemon may simply not be up yet. */
const TRY_AGAIN_LATER = 11;
/** Code 999: anything else that went wrong between shim and daemon. */
const INTERNAL = 999;
/** Code 5, I/O failure: stdin could not be read (as the skel reports it). */
const IO_FAILURE = 5;

/** Go's JSON text (4-space indent, `<`, `>`, `&` escaped) as the skel prints it. */
function goJSON(value: unknown): string {
  return JSON.stringify(value, null, 4).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function configOf(stdin: Uint8Array): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(stdin));
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {}; // the daemon judges the config; the shim only needs the socket path
  }
}

/**
 * The daemon's socket: the config's `socketPath`, else `$TSCNI_SOCKET`, else
 * `/run/tscni/tscni.sock`.
 *
 * @example socketPathFor({ socketPath: "/run/x.sock" }, {}) // "/run/x.sock"
 */
export function socketPathFor(
  config: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (typeof config.socketPath === "string" && config.socketPath !== "") return config.socketPath;
  const fromEnv = env.TSCNI_SOCKET;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : DEFAULT_SOCKET_PATH;
}

function fail(io: ShimIO, error: WireError): number {
  const { code, msg, details } = error;
  io.stdout(goJSON({ code, msg, ...(details !== undefined && details !== "" ? { details } : {}) }));
  return 1;
}

/**
 * One request to the daemon and its answer. The shim's own process blocks on it
 * ({@link syncExchange}, {@link runProcess}); run in process by a runtime or the daemon
 * itself (a chain that names `cni-shim`), it must not block their event loop: `postUnix`.
 */
export type Exchange = (socketPath: string, path: string, body: string) => HttpAnswer | Promise<HttpAnswer>;

/** The synchronous exchange through libc (`unix-exchange.ts`); `calls` is loaded on first use. */
export function syncExchange(calls: () => SocketCalls): Exchange {
  return (socketPath, path, body) => exchangeUnix(calls(), socketPath, path, body);
}

/**
 * Runs the shim: exit 0 with the daemon's result (if any) on stdout, or exit 1 with a CNI
 * error object on stdout: the daemon's own error for HTTP 400, code 11 when the daemon
 * cannot be reached, code 999 for any other answer, code 5 when stdin cannot be read.
 */
export async function main(io: ShimIO, exchange: Exchange = postUnix): Promise<number> {
  let stdin: Uint8Array;
  try {
    stdin = await io.readStdin();
  } catch (err) {
    // A CNI error, never a stack trace (SPEC §4): the skel's code and words for it.
    const why = err instanceof Error ? err.message : String(err);
    return fail(io, { code: IO_FAILURE, msg: `error reading from stdin: ${why}` });
  }
  const socketPath = socketPathFor(configOf(stdin), io.env);
  let res: HttpAnswer;
  try {
    res = await exchange(socketPath, CNI_ENDPOINT, encodeRequest(io.env, stdin));
  } catch (err) {
    const code =
      typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : "";
    const hint =
      code === "ENOENT"
        ? "no such socket"
        : code === "ECONNREFUSED"
          ? "connection refused"
          : err instanceof Error
            ? err.message
            : String(err);
    const why = `${hint}; is \`cni daemon\` running?`;
    return fail(io, {
      code: TRY_AGAIN_LATER,
      msg: `cannot reach the CNI daemon on ${JSON.stringify(socketPath)}; try again later`,
      details: why,
    });
  }
  const text = res.body;
  const decoded = decodeShimResponse(text);
  // The daemon's refusals (413, 408, 503: too large, too slow, busy or draining) carry a
  // CNI error too, so its code (11 for "try again later") reaches the runtime.
  if (decoded.ok && decoded.value.error !== undefined) return fail(io, decoded.value.error);
  if (res.status !== 200 && res.status !== 400) {
    return fail(io, { code: INTERNAL, msg: `the CNI daemon answered HTTP ${res.status}`, details: text.trim() });
  }
  if (!decoded.ok)
    return fail(io, { code: INTERNAL, msg: `the CNI daemon answered HTTP ${res.status}: ${decoded.problem}` });
  const { result } = decoded.value;
  if (res.status === 400) return fail(io, { code: INTERNAL, msg: "the CNI daemon answered HTTP 400 without an error" });
  const command = io.env.CNI_COMMAND;
  if (result === undefined) {
    if (command === "ADD" || command === "VERSION")
      return fail(io, { code: INTERNAL, msg: `the CNI daemon sent no result for ${command}` });
    return 0;
  }
  io.stdout(goJSON(result));
  return 0;
}

/**
 * Runs the shim as its own process: stdin, stdout and stderr through libc (the binary's
 * one `@tscni/kernel/stdio`), so that nothing but the shim's own modules and libc loads
 * before it answers.
 */
export function runProcess(argv: readonly string[]): Promise<number> {
  const c = libcNow();
  return main(
    { argv, env: process.env, ...standardStreams(c) },
    syncExchange(() => c),
  );
}
