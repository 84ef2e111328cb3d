/**
 * The CNI_ARGS parser (SPEC.md §6.4 CA-3), as the Go `types.LoadArgs` behaves:
 * `K=V` pairs joined by `;`, keys matched case-sensitively, unknown keys an error unless
 * `IgnoreUnknown` is true wherever it appears.
 */
import { CniError, ErrorCode } from "../error.ts";
import { goQuote } from "../go/names.ts";

/** The key every args struct embeds (Go's `CommonArgs`). */
export const IGNORE_UNKNOWN = "IgnoreUnknown";

const quote = goQuote;

/**
 * Parses a boolean arg as Go's `UnmarshallableBool`: `1`, `true`, `0`, `false` in any case.
 * Returns an error message for anything else.
 */
function parseBool(value: string): boolean | string {
  const s = value.toLowerCase();
  if (s === "1" || s === "true") return true;
  if (s === "0" || s === "false") return false;
  return `boolean unmarshal error: invalid input ${s}`;
}

/**
 * Parses `CNI_ARGS` into the values of the `known` keys (plus `IgnoreUnknown` when given).
 * Throws a CniError with code 4 on a malformed pair, a bad `IgnoreUnknown` value, or
 * unknown keys without `IgnoreUnknown` true, with the reference's messages. [DIFF] Go
 * plugins return these as plain errors, which the skel turns into code 999; CNI_ARGS is
 * an environment variable, so we use SPEC §4.2's code for an invalid one (4).
 *
 * @example parseCniArgs("IgnoreUnknown=1;IP=198.18.0.9;K8S_POD_NAME=web", ["IP"]) // { IgnoreUnknown: "1", IP: "198.18.0.9" }
 */
export function parseCniArgs(s: string, known: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (s === "") return out;
  const fail = (msg: string): never => {
    // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 4 (invalid environment variables)
    throw new CniError(ErrorCode.InvalidEnvironmentVariables, msg);
  };
  const unknown: string[] = [];
  let ignoreUnknown = false;
  // A trailing ";" gives an empty piece, which is an invalid pair like any other.
  for (const pair of s.split(";")) {
    const kv = pair.split("=");
    if (kv.length !== 2) fail(`ARGS: invalid pair ${quote(pair)}`);
    const [key = "", value = ""] = kv;
    if (key === IGNORE_UNKNOWN) {
      const b = parseBool(value);
      if (typeof b === "string") fail(`ARGS: error parsing value of pair ${quote(pair)}: ${b}`);
      ignoreUnknown = b === true;
      out[key] = value;
    } else if (known.includes(key)) {
      out[key] = value;
    } else {
      unknown.push(pair);
    }
  }
  if (unknown.length > 0 && !ignoreUnknown) fail(`ARGS: unknown args [${unknown.map(quote).join(" ")}]`);
  return out;
}
