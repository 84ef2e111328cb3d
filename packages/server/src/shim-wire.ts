/**
 * The shim's side of the wire, kept to what the plugin path needs (issue 11 item 2: the
 * shim's path as short as it can be): the request body, one HTTP/1.1 exchange over the
 * unix socket with `Bun.connect` (the daemon answers and closes, so the answer is read to
 * its end), and a check of the response's shape written out by hand. valibot's schemas in
 * `wire.ts` stay the daemon's boundary; `shim-wire.test.ts` holds the two to the same verdicts.
 */
import type { Decoded, WireResponse } from "./wire.ts";

/**
 * Builds the request body of a plugin call.
 *
 * @example encodeRequest({ CNI_COMMAND: "ADD" }, new TextEncoder().encode("{}"))
 */
export function encodeRequest(env: Readonly<Record<string, string | undefined>>, stdin: Uint8Array): string {
  const clean: Record<string, string> = {};
  for (const [k, val] of Object.entries(env)) if (val !== undefined) clean[k] = val;
  return JSON.stringify({ env: clean, config: Buffer.from(stdin).toString("base64") });
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);

/** The problem with a response's `error`, or undefined when it is a CNI error object. */
function errorProblem(e: unknown): string | undefined {
  if (!isObject(e)) return "error: not an object";
  if (typeof e.code !== "number" || !Number.isInteger(e.code) || e.code < 0)
    return "error.code: not an integer of at least 0";
  if (typeof e.msg !== "string") return "error.msg: not a string";
  if (e.details !== undefined && typeof e.details !== "string") return "error.details: not a string";
  return undefined;
}

/** Decodes and checks a response body: an object with an optional object `result` and an optional CNI `error`. */
export function decodeShimResponse(text: string): Decoded<WireResponse> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `response is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!isObject(json)) return { ok: false, problem: "invalid response: not an object" };
  if (json.result !== undefined && !isObject(json.result))
    return { ok: false, problem: "invalid response: result: not a JSON object" };
  const problem = json.error === undefined ? undefined : errorProblem(json.error);
  if (problem !== undefined) return { ok: false, problem: `invalid response: ${problem}` };
  const error = json.error as WireResponse["error"];
  return {
    ok: true,
    value: {
      ...(json.result !== undefined ? { result: json.result as Record<string, unknown> } : {}),
      ...(error !== undefined ? { error } : {}),
    },
  };
}

/** An HTTP answer: its status and body. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * POSTs `body` to `path` on the unix socket and reads the answer to the end of the
 * stream; rejects with the connect error (its `code`: ENOENT, ECONNREFUSED) or when the
 * answer is not HTTP.
 */
export function postUnix(socketPath: string, path: string, body: string): Promise<HttpAnswer> {
  const payload = new TextEncoder().encode(body);
  const head = `POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${payload.length}\r\nconnection: close\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      const text = Buffer.concat(chunks).toString("utf8");
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
      const split = text.indexOf("\r\n\r\n");
      if (status === null || split < 0) reject(new Error("the CNI daemon's answer is not HTTP"));
      else resolve({ status: Number(status[1]), body: text.slice(split + 4) });
    };
    Bun.connect<Uint8Array | undefined>({
      unix: socketPath,
      data: undefined,
      socket: {
        open(s) {
          s.write(head);
          let at = 0;
          while (at < payload.length) {
            const n = s.write(payload.subarray(at));
            if (n <= 0) break;
            at += n;
          }
          if (at < payload.length) s.data = payload.subarray(at);
        },
        drain(s) {
          const rest = s.data;
          if (rest === undefined) return;
          const n = s.write(rest);
          s.data = n < rest.length ? rest.subarray(Math.max(n, 0)) : undefined;
        },
        data(_s, chunk) {
          chunks.push(new Uint8Array(chunk));
        },
        end(s) {
          s.end();
          finish();
        },
        close: finish,
        error(_s, err) {
          if (!settled) {
            settled = true;
            reject(err);
          }
        },
      },
    }).catch((err: unknown) => {
      if (!settled) {
        settled = true;
        reject(err);
      }
    });
  });
}
