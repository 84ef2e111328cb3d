/**
 * The shim's side of the wire, kept to what the plugin path needs (issue 11 item 2: the
 * shim's path as short as it can be): the request body and a check of the response's
 * shape written out by hand (the exchange itself is `unix-exchange.ts`). valibot's schemas in
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
  // toBase64, not Buffer: the first use of Buffer loads node:buffer, ~0.6 ms of the shim's start.
  return JSON.stringify({ env: clean, config: stdin.toBase64() });
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
