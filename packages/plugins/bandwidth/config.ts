/**
 * The bandwidth plugin's configuration (the reference's `parseConfig`, plugins/meta/
 * bandwidth/main.go): rates and bursts from the top-level keys, or from the `bandwidth`
 * capability (runtimeConfig, SPEC §6.2) when no top-level key is present at all, checked in
 * the reference's order with its messages. `unshapedSubnets`/`shapedSubnets` are not read:
 * upstream main reverted them (d44bbf28, Oct 2024), so like the reference we ignore them.
 */
import * as v from "valibot";
import { parsePrevResult } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { goObject, goString, invalidConfig } from "../shared/netconf.ts";

/** One `bandwidth` entry: rates in bits per second, bursts in bits; 0 means unset. */
export interface BandwidthEntry {
  ingressRate: number;
  ingressBurst: number;
  egressRate: number;
  egressBurst: number;
}

/** bandwidth's config after validation. */
export interface BandwidthConfig {
  cniVersion: string;
  name: string;
  /** The limits in force (top-level keys, else the capability); undefined when neither is given. */
  bandwidth: BandwidthEntry | undefined;
  prevResult: Result100 | undefined;
}

const FIELDS = ["ingressRate", "ingressBurst", "egressRate", "egressBurst"] as const;
const UINT64_MAX = 18446744073709551615;

/** A Go `uint64`: a non-negative integer JSON number. */
const goUint64 = v.nullish(
  v.pipe(
    v.number("uint64"),
    v.check((n) => Number.isInteger(n) && n >= 0 && n <= UINT64_MAX, "uint64"),
  ),
);

const entrySchema = { ingressRate: goUint64, ingressBurst: goUint64, egressRate: goUint64, egressBurst: goUint64 };

const Schema = v.looseObject(
  {
    cniVersion: goString,
    name: goString,
    type: goString,
    prevResult: v.nullish(goObject({}, "map[string]interface {}")),
    runtimeConfig: v.nullish(
      goObject(
        { bandwidth: v.nullish(goObject(entrySchema, "main.BandwidthEntry")) },
        'struct { Bandwidth *main.BandwidthEntry "json:\\"bandwidth,omitempty\\"" }',
      ),
    ),
    ...entrySchema,
  },
  "main.PluginConf",
);

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Go's decoder matches keys case-insensitively (an exact match first, a later key wins): fold them to the field names. */
function fold(o: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(o))
    out[names.find((n) => n === k) ?? names.find((n) => n.toLowerCase() === k.toLowerCase()) ?? k] = val;
  return out;
}

function foldConfig(config: unknown): unknown {
  if (!isObject(config)) return config;
  const top = fold(config, [...FIELDS, "cniVersion", "name", "type", "prevResult", "runtimeConfig"]);
  const rc = top.runtimeConfig;
  if (isObject(rc)) {
    const r = fold(rc, ["bandwidth"]);
    if (isObject(r.bandwidth)) r.bandwidth = fold(r.bandwidth, FIELDS);
    top.runtimeConfig = r;
  }
  return top;
}

function jsonKind(x: unknown, target: string): string {
  if (typeof x === "string") return "string";
  // Go names the value only when the target is a number type (here: uint64).
  if (typeof x === "number") return target === "uint64" ? `number ${x}` : "number";
  if (typeof x === "boolean") return "bool";
  return Array.isArray(x) ? "array" : "object";
}

/** Go's unmarshal message for the first issue, under the reference's prefix. */
function unmarshalError(issue: v.BaseIssue<unknown>): Error {
  const keys = (issue.path ?? []).map((p) => p.key).filter((k): k is string => typeof k === "string");
  // Go names the struct being decoded: the conf for its own (and promoted) fields, else the innermost.
  const struct = keys.length <= 1 ? "PluginConf" : keys.length === 3 ? "BandwidthEntry" : "";
  const field = keys.length === 0 ? "" : ` into Go struct field ${struct}.${keys.join(".")}`;
  return invalidConfig(
    `failed to parse network configuration: json: cannot unmarshal ${jsonKind(issue.input, issue.message)}${field} of type ${issue.message}`,
  );
}

/** The reference's validateRateAndBurst: both or neither, and a burst under 4 GB (in bytes). */
function validateRateAndBurst(rate: number, burst: number): void {
  if (burst === 0 && rate !== 0) throw invalidConfig("if rate is set, burst must also be set");
  if (rate === 0 && burst !== 0) throw invalidConfig("if burst is set, rate must also be set");
  if (Math.floor(burst / 8) >= 0xffffffff) throw invalidConfig("burst cannot be more than 4GB");
}

const entry = (o: Partial<Record<(typeof FIELDS)[number], number | null | undefined>>): BandwidthEntry => ({
  ingressRate: o.ingressRate ?? 0,
  ingressBurst: o.ingressBurst ?? 0,
  egressRate: o.egressRate ?? 0,
  egressBurst: o.egressBurst ?? 0,
});

/** True when the entry limits nothing (`isZero`). */
export function isZero(b: BandwidthEntry): boolean {
  return b.ingressRate === 0 && b.ingressBurst === 0 && b.egressRate === 0 && b.egressBurst === 0;
}

/** Parses and validates the config as the reference's parseConfig does, in its order. */
export function parseBandwidthConfig(config: unknown): BandwidthConfig {
  const folded = foldConfig(config);
  const parsed = v.safeParse(Schema, folded, { abortEarly: true });
  if (!parsed.success) throw unmarshalError(parsed.issues[0]);
  const c = parsed.output;
  // The top-level keys are an embedded *BandwidthEntry: any of them present (even null)
  // makes it non-nil, and then the capability is not looked at (getBandwidth).
  const topLevel = isObject(folded) && FIELDS.some((f) => Object.hasOwn(folded, f));
  const capability = c.runtimeConfig?.bandwidth;
  const bandwidth = topLevel
    ? entry(c)
    : capability === undefined || capability === null
      ? undefined
      : entry(capability);
  if (bandwidth !== undefined) {
    validateRateAndBurst(bandwidth.ingressRate, bandwidth.ingressBurst);
    validateRateAndBurst(bandwidth.egressRate, bandwidth.egressBurst);
  }
  const cniVersion = c.cniVersion ?? "";
  return {
    cniVersion,
    name: c.name ?? "",
    bandwidth,
    prevResult: parsePrevResult({ cniVersion, prevResult: c.prevResult }),
  };
}
