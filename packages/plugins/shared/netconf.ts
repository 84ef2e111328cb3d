/**
 * The config keys bridge and ptp share, as valibot schemas that behave like Go's
 * `json.Unmarshal` into the reference's NetConf: unknown keys ignored, `null` meaning
 * "not set", and a wrongly typed value failing with Go's message so mixed Go/TypeScript
 * logs read alike.
 */
import * as v from "valibot";
import { CniError, ErrorCode, type DNS } from "@tscni/spec";
import { foldToSchema } from "@tscni/spec/go";

// Each schema's message is the Go type named in the error (see `netconfError`).
/** A Go `bool` field. */
export const goBool = v.nullish(v.boolean("bool"));
/** A Go `int` field. */
export const goInt = v.nullish(v.pipe(v.number("int"), v.integer("int"), v.safeInteger("int")));
/** A Go `string` field. */
export const goString = v.nullish(v.string("string"));
/** A Go `[]string` field. */
export const goStrings = v.nullish(v.array(v.string("string"), "[]string"));

/**
 * A Go struct (or map) field: a JSON object with these entries. valibot's object schemas
 * take arrays too; Go's decoder does not.
 */
export function goObject<E extends v.ObjectEntries>(entries: E, goType: string) {
  return v.pipe(
    v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x), goType),
    v.looseObject(entries, goType),
  );
}

/** `types.DNS`. */
export const dnsSchema = v.nullish(
  goObject({ nameservers: goStrings, domain: goString, search: goStrings, options: goStrings }, "types.DNS"),
);

/** `types.IPAM`: only `type` matters to the plugin; the rest is the IPAM plugin's. */
export const ipamSchema = v.nullish(goObject({ type: goString }, "types.IPAM"));

/** The keys of `types.NetConf` plus the ones both bridge and ptp read. */
export const commonEntries = {
  cniVersion: goString,
  name: goString,
  type: goString,
  ipam: ipamSchema,
  dns: dnsSchema,
  ipMasq: goBool,
  ipMasqBackend: goString,
  mtu: goInt,
  // Only its JSON type is checked here, as Go's decoding into types.NetConf does (PC-6).
  prevResult: v.nullish(goObject({}, "map[string]interface {}")),
};

function jsonKind(x: unknown): string {
  if (typeof x === "string") return "string";
  if (typeof x === "number") return Number.isInteger(x) ? "number" : `number ${x}`;
  if (typeof x === "boolean") return "bool";
  if (Array.isArray(x)) return "array";
  return "object";
}

/**
 * The Go struct that holds the field at `keys` (array indexes left out): Go names the
 * innermost struct, "" for an anonymous one (`args`, `runtimeConfig`).
 */
function goStruct(keys: readonly string[]): string {
  if (keys.length <= 1) return "NetConf";
  const parent = keys.slice(0, -1).join(".");
  return { ipam: "IPAM", dns: "DNS", "args.cni": "BridgeArgs", vlanTrunk: "VlanTrunk" }[parent] ?? "";
}

/** Go's unmarshal error for the first issue: `json: cannot unmarshal string into Go struct field NetConf.mtu of type int`. */
export function netconfError(issue: v.BaseIssue<unknown>): CniError {
  // Go's field path has no array indexes: `vlanTrunk.minID`, not `vlanTrunk.0.minID`.
  const keys = (issue.path ?? []).map((p) => p.key).filter((k): k is string => typeof k === "string");
  const path = keys.join(".");
  const field = path === "" ? "" : ` into Go struct field ${goStruct(keys)}.${path}`;
  // v1.1.1 (Debian) differs: code 999 (a plain error its skel wraps); SPEC §4.2 gives code 7 (invalid network config)
  return new CniError(
    ErrorCode.InvalidNetworkConfig,
    `failed to load netconf: json: cannot unmarshal ${jsonKind(issue.input)}${field} of type ${issue.message}`,
  );
}

/** Parses the config object with `schema`, throwing {@link netconfError} on the first problem. */
export function parseWith<S extends v.GenericSchema>(schema: S, config: unknown): v.InferOutput<S> {
  // Keys in another letter case are the same fields to Go's decoder.
  const parsed = v.safeParse(schema, foldToSchema(config, schema), { abortEarly: true });
  if (!parsed.success) throw netconfError(parsed.issues[0]);
  return parsed.output;
}

/** Drops `null`s (Go leaves a field at its zero value for JSON `null`). */
export function orUndefined<T>(x: T | null | undefined): T | undefined {
  return x === null ? undefined : x;
}

/** The config's DNS when any field is set; such a DNS replaces the IPAM one in the result (§8.1, §8.2). */
export function dnsOverride(
  dns:
    | { nameservers?: string[] | null; domain?: string | null; search?: string[] | null; options?: string[] | null }
    | null
    | undefined,
): DNS | undefined {
  if (dns === null || dns === undefined) return undefined;
  const set =
    (dns.nameservers ?? null) !== null ||
    (dns.search ?? null) !== null ||
    (dns.options ?? null) !== null ||
    (dns.domain ?? "") !== "";
  if (!set) return undefined;
  return {
    ...(dns.nameservers ? { nameservers: dns.nameservers } : {}),
    ...(dns.domain ? { domain: dns.domain } : {}),
    ...(dns.search ? { search: dns.search } : {}),
    ...(dns.options ? { options: dns.options } : {}),
  };
}

/**
 * The refusal of a field whose feature needs the firewall (masquerading, MAC spoof
 * checks): code 2 naming the field and its value, never a silent no-op.
 */
export function unsupportedField(field: string, value: unknown): CniError {
  return new CniError(
    ErrorCode.UnsupportedField,
    `unsupported field "${field}": ${JSON.stringify(value)}`,
    `"${field}" needs firewall rules, which this build does not manage yet`,
  );
}

/**
 * An invalid network config (code 7, SPEC §4.2) with the reference's message. The Go
 * plugins return plain errors here, which their skel makes code 999.
 */
export function invalidConfig(msg: string): CniError {
  // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7 (invalid network config)
  return new CniError(ErrorCode.InvalidNetworkConfig, msg);
}
