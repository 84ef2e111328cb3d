/**
 * Parsing `CNI_ARGS` on the daemon side (BRIEF seed design 3, CA-3): `K=V` pairs
 * separated by `;`, each with exactly one `=` and a non-empty key.
 */

/** The pairs of a `CNI_ARGS` value, or the first piece that is not a `K=V` pair. */
export type CniArgsParse =
  | { readonly ok: true; readonly pairs: [string, string][] }
  | { readonly ok: false; readonly piece: string };

/**
 * Splits `CNI_ARGS` into pairs; an empty string has none (CA-3). A bare `A`, `A=b=c`,
 * `=b` and the empty piece of a trailing `;` are invalid.
 *
 * @example parseCniArgs("IgnoreUnknown=1;K8S_POD_NAME=web") // { ok: true, pairs: [["IgnoreUnknown","1"],["K8S_POD_NAME","web"]] }
 */
export function parseCniArgs(value: string): CniArgsParse {
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
