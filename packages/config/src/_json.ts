/**
 * Decoding config bytes the way Go's encoding/json accepts them: a byte-order mark is an
 * error, invalid UTF-8 becomes U+FFFD, nesting deeper than 10000 and numbers beyond float64
 * are errors.
 */
import { ErrorCode } from "@tscni/spec";
import { goDecodeUtf8, goHugeNumber, goJsonSyntaxError, goRepeatsKeys } from "@tscni/spec/go";
import type { ConfigIssue, JsonPath } from "./issue.ts";

/** Go's encoding/json nesting limit. */
const MAX_DEPTH = 10000;

/** The outcome of decoding: a JSON value, or the issue that stopped it. */
export type Decoded = { ok: true; value: unknown; text: string } | { ok: false; issue: ConfigIssue };

/** The text of config bytes (a string passes through; invalid UTF-8 replaced byte by byte, as Go does). */
export function toText(input: Uint8Array | string): string {
  return typeof input === "string" ? input : goDecodeUtf8(input);
}

/** The bytes of a config (a string is UTF-8 encoded). */
export function toBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === "string" ? new TextEncoder().encode(input) : input;
}

/**
 * Decodes JSON; `prefix` is the upstream context, e.g. `error parsing configuration list: `.
 * `numbersUnder` names the top-level keys where Go decodes numbers at all (a struct skips
 * the values of keys it has no field for, so a number beyond float64 there is no error);
 * without it every number counts, as when Go decodes into `map[string]interface{}`.
 */
export function decodeJson(input: Uint8Array | string, prefix: string, numbersUnder?: readonly string[]): Decoded {
  let value: unknown;
  const text = toText(input);
  // Go's words for bytes that are not JSON (a byte-order mark is "invalid character 'ï'").
  const syntax = goJsonSyntaxError(toBytes(input));
  if (syntax !== undefined)
    return { ok: false, issue: { code: ErrorCode.DecodingFailure, path: [], message: `${prefix}${syntax}` } };
  try {
    // Go decodes a lone surrogate escape ("\ud800") as U+FFFD; only text with a surrogate
    // escape pays for the reviver (found by `cni fuzz config --against`, issue 15).
    value = SURROGATE_ESCAPE.test(text) ? JSON.parse(text, wellFormed) : JSON.parse(text);
  } catch (err) {
    // Valid for Go but not for JSON.parse (none known): still Go's kind of message.
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, issue: { code: ErrorCode.DecodingFailure, path: [], message: `${prefix}${reason}` } };
  }
  const bad = findUndecodable(value, numbersUnder);
  if (bad !== undefined)
    return { ok: false, issue: { code: ErrorCode.DecodingFailure, path: bad.path, message: `${prefix}${bad.reason}` } };
  // Into a map every occurrence of a key is decoded, so an earlier one's number counts too
  // (found by `cni fuzz config --against`, issue 15); only text with a repeated key pays.
  if (numbersUnder === undefined && goRepeatsKeys(text, value) && goHugeNumber(text) !== undefined)
    return { ok: false, issue: { code: ErrorCode.DecodingFailure, path: [], message: `${prefix}${OUT_OF_RANGE}` } };
  return { ok: true, value, text };
}

const OUT_OF_RANGE = "json: cannot unmarshal number out of range into Go value of type float64";

const SURROGATE_ESCAPE = /\\u[dD][89abcdefABCDEF]/;

function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === "string" ? value.toWellFormed() : value;
}

interface Frame {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly key: string | number | undefined;
  /** The top-level key this value is under. */
  readonly top: string | number | undefined;
}

function pathOf(frame: Frame): JsonPath {
  const out: (string | number)[] = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) out.push(f.key);
  return out.reverse();
}

/** The first place Go could not decode: too deep, or a number out of float64 range. */
function findUndecodable(
  root: unknown,
  numbersUnder: readonly string[] | undefined,
): { path: JsonPath; reason: string } | undefined {
  // Iterative with parent links, so a hostile document can exhaust neither stack nor time.
  const stack: Frame[] = [{ value: root, depth: 0, parent: undefined, key: undefined, top: undefined }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value, depth } = frame;
    const counts = numbersUnder === undefined || (typeof frame.top === "string" && numbersUnder.includes(frame.top));
    if (typeof value === "number" && !Number.isFinite(value) && counts) {
      return {
        path: pathOf(frame),
        reason: OUT_OF_RANGE,
      };
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_DEPTH) return { path: [], reason: "exceeded max depth" };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], depth: depth + 1, parent: frame, key: i, top: frame.top ?? i });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const top = frame.top ?? key;
        stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: frame, key, top });
      }
    }
  }
  return undefined;
}
