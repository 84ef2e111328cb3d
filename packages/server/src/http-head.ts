/**
 * Parsing an HTTP/1.1 request head (RFC 9112 sections 3 and 5): the request line and the
 * header fields, with what the daemon needs to bound the body: its length, or that it
 * is chunked.
 */

/** A parsed request head. */
export interface RequestHead {
  readonly method: string;
  /** The origin-form target (`/cni?x`). */
  readonly target: string;
  readonly headers: Headers;
  /** `Content-Length`, 0 when absent. */
  readonly contentLength: number;
  /** True when `Transfer-Encoding` is present (the daemon refuses it). */
  readonly chunked: boolean;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Parses the head (without the blank line that ends it); returns a message for anything
 * malformed: a bad request line, a bad field, a bad or repeated differing Content-Length.
 *
 * @example parseHead("POST /cni HTTP/1.1\r\ncontent-length: 2") // { method: "POST", contentLength: 2, ... }
 */
export function parseHead(text: string): RequestHead | string {
  const lines = text.split("\r\n");
  const [method, target, version, ...extra] = (lines[0] ?? "").split(" ");
  if (
    method === undefined ||
    !TOKEN.test(method) ||
    target === undefined ||
    !target.startsWith("/") ||
    extra.length > 0 ||
    !/^HTTP\/1\.[01]$/.test(version ?? "")
  ) {
    return `malformed request line ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`;
  }
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!TOKEN.test(name)) return `malformed header field ${JSON.stringify(line.slice(0, 80))}`;
    try {
      headers.append(name, line.slice(colon + 1).trim());
    } catch {
      return `malformed header field ${JSON.stringify(line.slice(0, 80))}`;
    }
  }
  const lengths = new Set(
    (headers.get("content-length") ?? "")
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v !== ""),
  );
  if (lengths.size > 1) return "conflicting Content-Length values";
  const raw = [...lengths][0] ?? "0";
  if (!/^\d{1,15}$/.test(raw)) return `invalid Content-Length ${JSON.stringify(raw.slice(0, 20))}`;
  return { method, target, headers, contentLength: Number(raw), chunked: headers.has("transfer-encoding") };
}
