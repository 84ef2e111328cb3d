/**
 * Valibot building blocks that decode a JSON value the way Go's `encoding/json` decodes
 * it into the reference library's field types (string, int, uint, net.IP, types.IPNet,
 * struct), with the same null handling: null leaves a string or int at its zero value and
 * a pointer or slice unset.
 */
import * as v from "valibot";
import { isJsonObject, jsonKind } from "../_gojson.ts";
import { canonicalCIDR, canonicalIP } from "../ip.ts";

/** A message "cannot unmarshal <kind> into <goType>", Go's wording for a wrong JSON type. */
export function typeMessage(goType: string): (issue: v.BaseIssue<unknown>) => string {
  return (issue) => `cannot unmarshal ${jsonKind(issue.input)} into ${goType}`;
}

/** A Go `string`: a JSON string; null leaves it empty. Lone surrogates become U+FFFD. */
export const goString = v.pipe(
  v.custom<string | null>((x) => typeof x === "string" || x === null, typeMessage("string")),
  v.transform((x): string => (typeof x === "string" ? x.toWellFormed() : "")),
);

/** A Go `string` struct field: absent, null and "" are all the empty string. */
export const goStringField = v.optional(goString, "");

/** A Go `[]string`: null leaves it unset; a null element is an empty string. */
export const goStringList = v.optional(v.nullable(v.array(goString, typeMessage("[]string"))));

const INT_LIMIT = 2 ** 63;

/** A Go `int` (int64): an integer JSON number. Non-integer literals arrive as NonIntegerNumber. */
export const goInt = v.custom<number>(
  (x) => typeof x === "number" && Number.isInteger(x) && Math.abs(x) <= INT_LIMIT,
  typeMessage("int"),
);

/** A Go `uint`: a non-negative integer JSON number. */
export const goUint = v.custom<number>(
  (x) => typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= INT_LIMIT * 2,
  typeMessage("uint"),
);

/** An optional Go `int` or `*int` field: absent and null both mean unset. */
export const goOptionalInt = v.optional(v.nullable(goInt));

/**
 * A `types.IPNet`: a CIDR string that keeps its host bits, printed canonically.
 * Null is decoded by Go as the empty string, which is not a CIDR.
 */
export const cidrText = v.pipe(
  v.custom<string | null>(
    (x) => typeof x === "string" || x === null,
    (issue) => (issue.input === undefined ? "missing" : `cannot unmarshal ${jsonKind(issue.input)} into CIDR string`),
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const text = dataset.value ?? "";
    const canonical = canonicalCIDR(text);
    if (canonical === undefined) {
      addIssue({ message: `invalid CIDR address: ${text}` });
      return NEVER;
    }
    return canonical;
  }),
);

/** A `net.IP` value: null or "" leave it unset; otherwise a valid IP, printed canonically. */
export const ipText = v.pipe(
  v.custom<string | null>((x) => typeof x === "string" || x === null, typeMessage("IP string")),
  v.rawTransform(({ dataset, addIssue, NEVER }): string | undefined => {
    const text = dataset.value;
    if (text === null || text === "") return undefined;
    const canonical = canonicalIP(text);
    if (canonical === undefined) {
      addIssue({ message: `invalid IP address: ${text}` });
      return NEVER;
    }
    return canonical;
  }),
);

/**
 * A Go struct: a JSON object (an array is not one, whatever valibot's object thinks).
 * Unknown keys are dropped from the output, as Go ignores them.
 */
export function goStruct<const TEntries extends v.ObjectEntries>(entries: TEntries, goType: string) {
  return v.pipe(
    v.custom<Record<string, unknown>>(isJsonObject, typeMessage(goType)),
    v.object(entries, (issue) => `missing required field ${issue.expected ?? ""}`),
  );
}

/** A Go pointer to a struct or a slice: absent or null mean unset. */
export function goOptional<const TWrapped extends v.GenericSchema>(wrapped: TWrapped) {
  return v.optional(v.nullable(wrapped));
}

/** A list of Go structs (`[]*T`); null means unset. A null element is rejected. */
export function goList<const TItem extends v.GenericSchema>(item: TItem, goType: string) {
  return v.optional(v.nullable(v.array(item, typeMessage(`[]${goType}`))));
}

/** Formats the path of a valibot issue as a JSON path: `ips[0].address`. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = "";
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** The first issue of a failed parse as one line: `path: message` (just the message at the root). */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  if (first === undefined) return "invalid value";
  const path = issuePath(first);
  return path === "" ? first.message : `${path}: ${first.message}`;
}

/** A `net.IP` struct field: absent, null and "" all mean unset. */
export const ipField = v.optional(ipText);
