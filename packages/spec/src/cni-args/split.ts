/**
 * Splitting `CNI_ARGS` into pairs (CA-3): `K=V` pieces separated by `;`, each with exactly
 * one `=` and a non-empty key; the daemon's reading, and the base of cnitool's.
 */
import { CniError, ErrorCode } from "../error.ts";
import { goQuote } from "../go/names.ts";

/** The pairs of a `CNI_ARGS` value, or the first piece that is not a `K=V` pair. */
export type CniArgsParse =
  | { readonly ok: true; readonly pairs: [string, string][] }
  | { readonly ok: false; readonly piece: string };

/**
 * Splits `CNI_ARGS` into pairs; an empty string has none (CA-3). A bare `A`, `A=b=c`,
 * `=b` and the empty piece of a trailing `;` are invalid.
 *
 * @example splitCniArgs("IgnoreUnknown=1;K8S_POD_NAME=web") // { ok: true, pairs: [["IgnoreUnknown","1"],["K8S_POD_NAME","web"]] }
 */
export function splitCniArgs(value: string): CniArgsParse {
  if (value === "") return { ok: true, pairs: [] };
  const pairs: [string, string][] = [];
  for (const piece of value.split(";")) {
    const parts = piece.split("=");
    const [key, val] = parts;
    if (parts.length !== 2 || key === undefined || val === undefined || key === "") return { ok: false, piece };
    pairs.push([key, val]);
  }
  return { ok: true, pairs };
}

/** The value of the last pair named `key` (case-sensitive, CA-3), if any. */
export function argValue(pairs: readonly (readonly [string, string])[], key: string): string | undefined {
  let found: string | undefined;
  for (const [k, v] of pairs) if (k === key) found = v;
  return found;
}

/**
 * cnitool's reading of `CNI_ARGS` (CT-2): every piece exactly `K=V` with a non-empty key
 * and value; otherwise code 4 with cnitool's `invalid CNI_ARGS pair %q`.
 *
 * @example cnitoolArgs("IgnoreUnknown=1;IP=198.18.0.9") // [["IgnoreUnknown","1"],["IP","198.18.0.9"]]
 */
export function cnitoolArgs(value: string): [string, string][] {
  return value.split(";").map((pair) => {
    const parsed = splitCniArgs(pair);
    const kv = parsed.ok ? parsed.pairs[0] : undefined;
    if (kv === undefined || kv[1] === "")
      throw new CniError(ErrorCode.InvalidEnvironmentVariables, `invalid CNI_ARGS pair ${goQuote(pair)}`);
    return kv;
  });
}

/**
 * The reading the reference's dhcp IPAM gives `CNI_ARGS` (lease.go `prepareOptions`): each
 * `;` piece split at its first `=`; a piece without one is ignored, a later key wins.
 *
 * @example lenientCniArgs("A=1;junk;B=x=y") // Map { "A" => "1", "B" => "x=y" }
 */
export function lenientCniArgs(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const piece of value.split(";")) {
    const at = piece.indexOf("=");
    if (at >= 0) out.set(piece.slice(0, at), piece.slice(at + 1));
  }
  return out;
}
