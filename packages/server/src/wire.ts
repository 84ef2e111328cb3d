/**
 * The wire format shared by the shim and the daemon (the Multus thick plugin's `api`
 * package): a request is the shim's environment and its stdin; a response is a result or
 * a CNI error. Both sides validate what they receive with these schemas. Kept light: the
 * shim imports it on the plugin path.
 */
import * as v from "valibot";

/** Where the daemon listens unless the config's `socketPath` or `$TSCNI_SOCKET` says otherwise. */
export const DEFAULT_SOCKET_PATH = "/run/tscni/tscni.sock";

/** The one endpoint: `POST /cni`. */
export const CNI_ENDPOINT = "/cni";

/** A request: the shim's environment and its stdin as base64 (as Go encodes `[]byte`, so Multus-style clients agree). */
export const WireRequestSchema = v.object({
  env: v.record(v.string(), v.string()),
  config: v.pipe(v.string(), v.base64("config must be base64")),
});

/** A request on the wire. */
export type WireRequest = v.InferOutput<typeof WireRequestSchema>;

/** A CNI error object (E-1) as the daemon sends it. */
export const WireErrorSchema = v.object({
  code: v.pipe(v.number(), v.integer(), v.minValue(0)),
  msg: v.string(),
  details: v.optional(v.string()),
});

/** A CNI error on the wire. */
export type WireError = v.InferOutput<typeof WireErrorSchema>;

/** A response: HTTP 200 with `result` (ADD, VERSION) or nothing, HTTP 400 with `error`. */
export const WireResponseSchema = v.object({
  result: v.optional(
    v.pipe(
      v.unknown(),
      v.check((r) => !Array.isArray(r), "result must be a JSON object"),
      v.record(v.string(), v.unknown()),
    ),
  ),
  error: v.optional(WireErrorSchema),
});

/** A response on the wire. */
export type WireResponse = v.InferOutput<typeof WireResponseSchema>;

/** The outcome of decoding a wire value: the value, or why it is invalid. */
export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

function decode<T>(schema: v.GenericSchema<unknown, T>, text: string, what: string): Decoded<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `${what} is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = v.safeParse(schema, json);
  if (parsed.success) return { ok: true, value: parsed.output };
  const problems = parsed.issues.map((i) => {
    const path = v.getDotPath(i);
    return path === null ? i.message : `${path}: ${i.message}`;
  });
  return { ok: false, problem: `invalid ${what}: ${problems.join("; ")}` };
}

/**
 * Builds the request body of a plugin call.
 *
 * @example encodeRequest({ CNI_COMMAND: "ADD" }, new TextEncoder().encode("{}"))
 */
export function encodeRequest(env: Readonly<Record<string, string | undefined>>, stdin: Uint8Array): string {
  const clean: Record<string, string> = {};
  for (const [k, val] of Object.entries(env)) if (val !== undefined) clean[k] = val;
  return JSON.stringify({ env: clean, config: Buffer.from(stdin).toString("base64") } satisfies WireRequest);
}

/** Decodes and validates a request body (daemon side). */
export function decodeRequest(text: string): Decoded<WireRequest> {
  return decode(WireRequestSchema, text, "request");
}

/** Decodes and validates a response body (shim side). */
export function decodeResponse(text: string): Decoded<WireResponse> {
  return decode(WireResponseSchema, text, "response");
}

/** The stdin bytes of a validated request. */
export function requestConfig(request: WireRequest): Uint8Array {
  return new Uint8Array(Buffer.from(request.config, "base64"));
}
