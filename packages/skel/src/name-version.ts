/**
 * The Go skel reads stdin's `name` (validateConfig's `struct { Name string }`) and
 * `cniVersion` (the version ConfigDecoder's `struct { CNIVersion string }`) with
 * encoding/json: keys match in any letter case, and EVERY occurrence is type-checked, the
 * last string winning (`null` keeps what was there). JSON.parse sees only the last exact
 * spelling, so `{"Name":"n"}` had no name and `{"name":0,"name":"n"}` passed here. The
 * fix runs only when a key repeats or one of the two keys is spelt otherwise.
 */
import { type GoType, goDecodeInto, goFoldName, goRepeatsKeys } from "@tscni/spec/go";

const STRING: GoType = { kind: "string" };
/** Both anonymous structs at once: a field's errors are that decode's errors. */
const NAME_AND_VERSION: GoType = {
  kind: "struct",
  name: "struct {}",
  struct: "",
  fields: { name: STRING, cniVersion: STRING },
};

/** What Go's decodes give: each value, or the JSON kind of the first wrongly typed occurrence. */
export interface NameAndVersion {
  readonly name: string | { readonly badKind: string };
  readonly cniVersion: string | { readonly badKind: string } | undefined;
}

/** True when a top-level key folds onto `name` or `cniVersion` without being it. */
function hasFoldedKey(obj: Record<string, unknown>): boolean {
  for (const key of Object.keys(obj)) {
    if ((key.length === 4 && key !== "name") || (key.length === 10 && key !== "cniVersion")) {
      const folded = goFoldName(key);
      if (folded === "NAME" || folded === "CNIVERSION") return true;
    }
  }
  return false;
}

/**
 * Go's reading of `name` and `cniVersion` from stdin `text` (already parsed into `obj`),
 * or undefined when JSON.parse's reading is already Go's (the common case).
 */
export function goNameAndVersion(text: string, obj: Record<string, unknown>): NameAndVersion | undefined {
  if (!hasFoldedKey(obj) && !goRepeatsKeys(text, obj)) return undefined;
  const { value, errors } = goDecodeInto(text, NAME_AND_VERSION);
  const decoded = (value ?? {}) as { name?: string; cniVersion?: string };
  const bad = (field: string) => errors.find((e) => goFoldName(String(e.path[0])) === field)?.kind;
  const badName = bad("NAME");
  const badVersion = bad("CNIVERSION");
  return {
    name: badName !== undefined ? { badKind: badName } : (decoded.name ?? ""),
    cniVersion: badVersion !== undefined ? { badKind: badVersion } : decoded.cniVersion,
  };
}
