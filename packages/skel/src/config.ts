/**
 * Step 4 of the dispatcher (SPEC.md §1.11) and the config version decoder: stdin must be
 * a JSON object with a valid `name`; `cniVersion` must be a string, absent meaning 0.1.0.
 * Messages follow the Go skel (whose JSON errors come from encoding/json).
 */
import { CniError, ErrorCode } from "@tscni/spec";
import { goDecodeUtf8, goJsonSyntaxError } from "@tscni/spec/go";
import { goNameAndVersion } from "./name-version.ts";
import { validateNetworkName } from "./validate.ts";

/** A parsed stdin config: a JSON object whose `name` passed validation. */
export type RawConfig = Record<string, unknown> & { name: string };

/** The JSON type name Go's encoding/json uses in its messages. */
function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "boolean") return "bool";
  return typeof v; // number, string, object
}

/** A JSON value of each kind, for a wrongly typed `cniVersion` occurrence. */
const BAD_OF_KIND: Readonly<Record<string, unknown>> = { number: 0, bool: false, object: {}, array: [] };

/**
 * Parses stdin and validates the network name: invalid JSON or a wrongly typed `name`
 * is code 6 `error unmarshall network config: ...`; an empty name code 7.
 *
 * @example decodeConfig(new TextEncoder().encode('{"name":"n"}')) // { name: "n" }
 */
export function decodeConfig(stdin: Uint8Array): RawConfig | CniError {
  const fail = (why: string) => new CniError(ErrorCode.DecodingFailure, `error unmarshall network config: ${why}`);
  let parsed: unknown;
  let text: string;
  try {
    // Go reads each invalid UTF-8 byte as its own U+FFFD (the WHATWG decoder folds a
    // truncated sequence into one), as the runtime side does.
    text = goDecodeUtf8(stdin);
    parsed = JSON.parse(text);
  } catch (err) {
    // Go checks the syntax first, so the words are its scanner's (§1.11 step 4). Both accept
    // exactly RFC 8259 JSON, so the scanner runs only on what JSON.parse refused: walking
    // every byte of every valid config cost ~1 ms of each plugin call.
    const syntax = goJsonSyntaxError(stdin);
    return fail(syntax ?? (err instanceof Error ? err.message : String(err))); // valid but nested too deep for this engine
  }
  // Go decodes `null` into the zero struct, so it is a missing name, not a decode error.
  if (parsed === null) return new CniError(ErrorCode.InvalidNetworkConfig, "missing network name");
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    return fail(
      `json: cannot unmarshal ${goJsonType(parsed)} into Go value of type struct { Name string "json:\\"name\\"" }`,
    );
  }
  let obj = parsed as Record<string, unknown>;
  // A repeated or differently spelt `name`/`cniVersion`: Go's readings replace JSON.parse's.
  const go = goNameAndVersion(text, obj);
  if (go !== undefined) {
    if (typeof go.name !== "string")
      return fail(`json: cannot unmarshal ${go.name.badKind} into Go struct field .name of type string`);
    const v = go.cniVersion;
    // A wrongly typed occurrence becomes a value of its kind, so configVersion words the error.
    obj = { ...obj, name: go.name, cniVersion: typeof v === "object" ? (BAD_OF_KIND[v.badKind] ?? 0) : v };
  }
  const name = obj.name ?? "";
  if (typeof name !== "string") {
    return fail(`json: cannot unmarshal ${goJsonType(name)} into Go struct field .name of type string`);
  }
  const bad = validateNetworkName(name);
  if (bad !== undefined) return bad;
  return obj as RawConfig;
}

/**
 * The config's `cniVersion` as the Go `ConfigDecoder` reads it: absent, null or empty is
 * "0.1.0"; a non-string is code 6.
 *
 * @example configVersion({ name: "n" }) // "0.1.0"
 */
export function configVersion(config: Record<string, unknown>): string | CniError {
  const v = config.cniVersion ?? "";
  if (typeof v !== "string") {
    return new CniError(
      ErrorCode.DecodingFailure,
      `decoding version from network config: json: cannot unmarshal ${goJsonType(v)} into Go struct field .cniVersion of type string`,
    );
  }
  return v === "" ? "0.1.0" : v;
}
