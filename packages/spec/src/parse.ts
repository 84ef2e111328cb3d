/**
 * Turning plugin output into a typed result, the way the reference library does it:
 * `create.CreateFromBytes` (RP-1), `create.Create` (a parser picked by a given version)
 * and `ExecPluginWithResult`'s version fix-up (RP-2).
 */
import { foldToShape, isJsonObject, jsonKind, parseJsonLikeGo } from "./_gojson.ts";
import { CniError, ErrorCode } from "./error.ts";
import { FAMILY_VERSIONS, resultFamily } from "./family.ts";
import { decodeResult100 } from "./fast-result.ts";
import type { Result, ResultFamily } from "./types.ts";

type SchemaSide = typeof import("./parse-schema.ts");
let schemaSide: SchemaSide | undefined;

/**
 * The schema decode, loaded on first use: `require` makes the bundler put the schemas in
 * a chunk of their own, which a plugin whose results all decode by hand never evaluates.
 */
function schemaDecode(family: ResultFamily, raw: Record<string, unknown>): { ok: Result } | { error: string } {
  schemaSide ??= require("./parse-schema.ts") as SchemaSide;
  return schemaSide.schemaDecode(family, raw);
}

function _decodeError(reason: string): CniError {
  return new CniError(ErrorCode.DecodingFailure, `invalid result: ${reason}`);
}

/** JSON text or bytes become a JSON value (numbers Go cannot read as ints kept apart); values pass. */
function _decode(input: unknown): unknown {
  if (typeof input !== "string" && !(input instanceof Uint8Array)) return input;
  try {
    return parseJsonLikeGo(input);
  } catch (err) {
    const reason = err instanceof SyntaxError ? err.message : "JSON nested too deeply";
    throw _decodeError(reason);
  }
}

function _decodeIn(family: ResultFamily, version: string, value: unknown): Result {
  // Go's json.Unmarshal of `null` into a struct is a no-op: an empty result.
  const raw = value === null ? {} : value;
  if (!isJsonObject(raw)) throw _decodeError(`cannot unmarshal ${jsonKind(raw)} into result`);
  // 1.x results decode by hand when they can; the schema has the last word (fast-result.ts).
  const fast = family === "100" ? decodeResult100(raw) : undefined;
  const parsed = fast === undefined ? schemaDecode(family, raw) : { ok: fast };
  if ("error" in parsed) throw _decodeError(parsed.error);
  const result = parsed.ok;
  const accepted = FAMILY_VERSIONS[family];
  if (!accepted.includes(result.cniVersion)) {
    throw new CniError(
      ErrorCode.IncompatibleCNIVersion,
      `result type supports [${accepted.join(" ")}] but unmarshalled CNIVersion is "${result.cniVersion}"`,
    );
  }
  // An empty version reads as 0.1.0 (RP-1, R02-3); only the 0.2.0 type accepts it.
  return result.cniVersion === "" ? { ...result, cniVersion: version === "" ? "0.1.0" : version } : result;
}

/**
 * Parses a result with the parser of the given version, like Go's `create.Create`: the
 * result's own `cniVersion` must be one that parser accepts (R02-3, R04-5, R1-1).
 *
 * @example createResult("1.0.0", '{"cniVersion":"0.4.0"}') // throws: result type supports [1.0.0 1.1.0] ...
 */
export function createResult(version: string, input: unknown): Result {
  const family = resultFamily(version);
  if (family === undefined) {
    throw new CniError(ErrorCode.IncompatibleCNIVersion, `unsupported CNI result version "${version}"`);
  }
  return _decodeIn(family, version, _decode(input));
}

/** Go's `DecodeVersion`: the `cniVersion` key (any letter case, last one wins); "" is 0.1.0. */
function _resultVersion(value: unknown): string {
  if (value === null) return "0.1.0";
  if (!isJsonObject(value)) throw _decodeError(`cannot unmarshal ${jsonKind(value)} into result`);
  const folded = foldToShape(value, { kind: "struct", fields: { cniVersion: { kind: "leaf" } } });
  const version = isJsonObject(folded) ? folded.cniVersion : undefined;
  if (version === undefined || version === null || version === "") return "0.1.0";
  if (typeof version !== "string") {
    throw _decodeError(`cniVersion: cannot unmarshal ${jsonKind(version)} into string`);
  }
  return version;
}

/** `ExecPluginWithResult`'s fix-up (RP-2): a missing, empty or non-string version becomes the config's. */
function _withConfigVersion(value: unknown, configVersion: string): { version: string; value: unknown } {
  const raw = value === null ? {} : value;
  if (!isJsonObject(raw)) throw _decodeError(`cannot unmarshal ${jsonKind(raw)} into result`);
  const own = Object.hasOwn(raw, "cniVersion") ? raw.cniVersion : undefined;
  if (typeof own === "string" && own !== "") return { version: own, value: raw };
  const version = configVersion === "" ? "0.1.0" : configVersion;
  // Go re-encodes the map with sorted keys, so among keys differing only in case the
  // last in byte order wins; keep that order.
  const fixed = Object.fromEntries(
    Object.entries({ ...raw, cniVersion: version }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { version, value: fixed };
}

/**
 * Parses plugin output (JSON text, UTF-8 bytes or an already decoded value) into a typed,
 * canonical result. The version comes from `cniVersion` (RP-1); when it is missing or
 * empty, `configVersion` is used if given (RP-2 step 3), else 0.1.0. Throws a CniError:
 * code 6 for undecodable input (the message names the JSON path of the bad field, e.g.
 * `ips[0].address`), code 1 for an unsupported version.
 *
 * @example parseResult('{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.5/16"}]}')
 */
export function parseResult(input: unknown, configVersion?: string): Result {
  const value = _decode(input);
  if (configVersion !== undefined) {
    const fixed = _withConfigVersion(value, configVersion);
    return createResult(fixed.version, fixed.value);
  }
  const version = _resultVersion(value);
  const family = resultFamily(version);
  if (family === undefined) {
    throw new CniError(ErrorCode.IncompatibleCNIVersion, `unsupported CNI result version "${version}"`);
  }
  return _decodeIn(family, version, value);
}
