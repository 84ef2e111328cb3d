/**
 * The bytes of the daemon's HTTP/1.1 answers (one per connection, then `connection:
 * close`): a handler's `Response` serialised, and refusals made straight from strings.
 */

/** The reason phrase of each status the daemon answers with. */
const REASONS: Readonly<Record<number, string>> = {
  200: "OK",
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  411: "Length Required",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

const encoder = new TextEncoder();

/** The chunks joined into one array of `total` bytes. */
export function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The head of a response: status line, its headers, a length, `connection: close`. */
function headText(status: number, headers: readonly (readonly [string, string])[], length: number): string {
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? "Status"}`];
  for (const [name, value] of headers)
    if (name !== "content-length" && name !== "connection") lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${length}`, "connection: close", "", "");
  return lines.join("\r\n");
}

/**
 * The bytes of a refusal, made synchronously from strings: a flood of junk costs the JS
 * thread no Response, no promise and no copy per request.
 */
export function refusalBytes(status: number, code: number, msg: string): Uint8Array {
  const body = JSON.stringify({ error: { code, msg } });
  return encoder.encode(headText(status, [["content-type", "application/json"]], Buffer.byteLength(body)) + body);
}

/** The bytes of a response: status line, its headers, a length, `connection: close`. */
export async function serialize(res: Response): Promise<Uint8Array> {
  const body = new Uint8Array(await res.arrayBuffer());
  const head = encoder.encode(headText(res.status, [...res.headers], body.length));
  return concat([head, body], head.length + body.length);
}

/** A CNI error answer (the wire response's `error`) with HTTP status `status`. */
export function errorResponse(status: number, code: number, msg: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, msg } }), {
    status,
    headers: { "content-type": "application/json", ...extra },
  });
}
