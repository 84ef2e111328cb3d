/**
 * Parsing one plugin object (SC-1, PC-6): libcni's `NetworkPluginConfFromBytes`, also the
 * deprecated `.conf` file format (CF-2) and each element of a list's `plugins`.
 */
import * as v from "valibot";
import type { PluginConf } from "@tscni/spec";
import { foldKeys, type Renames } from "./_fold.ts";
import { goFoldName, goJsonKind, isJsonObject } from "@tscni/spec/go";
import { decodeEveryOccurrence, needsEveryOccurrence } from "./_every-occurrence.ts";
import { decodeJson, toBytes } from "./_json.ts";
import { type ConfigIssue, invalid, issueToError } from "./issue.ts";
import { PLUGIN_SHAPE, PluginConfSchema } from "./plugin-schema.ts";
import type { NetworkConfig } from "./types.ts";

/** The upstream prefix of every single-plugin parse error (SC-1). */
export const PLUGIN_PREFIX = "error parsing configuration: ";

/** The Go struct each nested field decodes into, for the `Go struct field <Struct>.<path>` text. */
const STRUCT_OF_FIELD: Readonly<Record<string, string>> = {
  ipam: "IPAM",
  dns: "DNS",
  "cni.dev/valid-attachments": "GCAttachment",
};

/** The outcome of checking a decoded plugin object: the typed value when there are no issues. */
export interface PluginCheck {
  readonly network: PluginConf | undefined;
  readonly issues: readonly ConfigIssue[];
}

/**
 * Checks a decoded JSON value as a plugin object, in Go's order: type errors of the known
 * fields (first in document order), then an empty `type`. Issues carry paths relative to
 * the object and the `error parsing configuration: ` prefix. With `text` (what `value` was
 * parsed from), a key given twice or a known key in another spelling is judged as Go
 * judges it: every occurrence type-checked and merged in order.
 */
export function checkPluginValue(value: unknown, text?: string): PluginCheck {
  if (text !== undefined && needsEveryOccurrence(text, value)) return checkEveryOccurrence(text, value);
  const renames: Renames = new WeakMap();
  const folded = foldKeys(value, PLUGIN_SHAPE, renames);
  // Go decodes `null` into a struct as "nothing to do": only the missing type remains.
  const obj: Record<string, unknown> = folded === null ? {} : (folded as Record<string, unknown>);
  const issues: ConfigIssue[] = [];
  const result = folded === null ? undefined : v.safeParse(PluginConfSchema, folded);
  if (result !== undefined && !result.success) {
    const order = isJsonObject(folded) ? Object.keys(folded) : [];
    const rank = (i: v.BaseIssue<unknown>): number => order.indexOf(String(i.path?.[0]?.key ?? ""));
    for (const issue of [...result.issues].sort((a, b) => rank(a) - rank(b))) issues.push(toIssue(issue, renames));
    if (!isJsonObject(folded)) return { network: undefined, issues };
  }
  const type = obj.type;
  if (!issues.some((i) => i.path.length === 1 && i.path[0] === (renames.get(obj)?.get("type") ?? "type"))) {
    if (typeof type !== "string" || type === "") {
      issues.push(invalid([renames.get(obj)?.get("type") ?? "type"], `${PLUGIN_PREFIX}missing 'type'`));
    }
  }
  if (issues.length > 0) return { network: undefined, issues };
  // Go leaves a field at its zero value for `null`: drop those rather than expose nulls.
  const network = Object.fromEntries(
    Object.entries(obj).filter(([k, val]) => !(val === null && Object.hasOwn(PLUGIN_SHAPE, k))),
  ) as PluginConf;
  return { network, issues };
}

/** The slow path of {@link checkPluginValue}: Go's decode of every occurrence, then an empty `type`. */
function checkEveryOccurrence(text: string, value: unknown): PluginCheck {
  const { object, issues } = decodeEveryOccurrence(text, value, PLUGIN_PREFIX);
  if (issues.length > 0) return { network: undefined, issues };
  if (typeof object?.type !== "string" || object.type === "") {
    // Point at the last spelling of `type` in the document, as the fast path does.
    const keys = isJsonObject(value) ? Object.keys(value).filter((k) => goFoldName(k) === "TYPE") : [];
    return { network: undefined, issues: [invalid([keys.at(-1) ?? "type"], `${PLUGIN_PREFIX}missing 'type'`)] };
  }
  return { network: object as PluginConf, issues: [] };
}

function toIssue(issue: v.BaseIssue<unknown>, renames: Renames): ConfigIssue {
  const path: (string | number)[] = [];
  const goPath: string[] = [];
  for (const item of issue.path ?? []) {
    const key = item.key as string | number;
    if (typeof key === "number") {
      path.push(key);
      continue;
    }
    const original =
      typeof item.input === "object" && item.input !== null ? renames.get(item.input)?.get(key) : undefined;
    path.push(original ?? key);
    goPath.push(key);
  }
  // Go names the innermost struct whose field failed (IPAM.ipam.type, PluginConf.type).
  const nested = goPath.length > 1 ? STRUCT_OF_FIELD[goPath[0] ?? ""] : undefined;
  const struct = nested ?? "PluginConf";
  const kind = goJsonKind(issue.input);
  const text =
    goPath.length === 0
      ? `json: cannot unmarshal ${kind} into Go value of type types.PluginConf`
      : `json: cannot unmarshal ${kind} into Go struct field ${struct}.${goPath.join(".")} of type ${issue.message}`;
  return invalid(path, `${PLUGIN_PREFIX}${text}`);
}

/** Wraps a checked plugin object and its bytes (parsed from `text`, when known); throws the first issue. */
export function pluginFromValue(value: unknown, bytes: Uint8Array, source?: string, text?: string): NetworkConfig {
  const { network, issues } = checkPluginValue(value, text);
  const first = issues[0];
  if (first !== undefined) throw issueToError(first, source);
  if (network === undefined) throw issueToError(invalid([], `${PLUGIN_PREFIX}missing 'type'`), source);
  return { network, bytes };
}

/**
 * Where Go's struct (PC-6) decodes arbitrary numbers: `prevResult` is a
 * `map[string]interface{}`; every other number is either skipped (a key without a field)
 * or a type error of its field. So `{"type":"x","mtu":1e400}` parses, as with libcni
 * (found by `cni fuzz config --against`, issue 15).
 */
const NUMBERS_UNDER = ["prevResult"];

/**
 * Parses one plugin object (SC-1): `type` is required, the known fields must have Go's
 * types (PC-6). Throws a CniError naming `source` and the JSON path: code 6 for bad JSON,
 * 7 for a bad config.
 *
 * @example parsePluginConf('{"cniVersion":"1.0.0","name":"n","type":"bridge"}').network.type // "bridge"
 */
export function parsePluginConf(bytes: Uint8Array | string, source?: string): NetworkConfig {
  const decoded = decodeJson(bytes, PLUGIN_PREFIX, NUMBERS_UNDER);
  if (!decoded.ok) throw issueToError(decoded.issue, source);
  return pluginFromValue(decoded.value, toBytes(bytes), source, decoded.text);
}

/** Every problem of one plugin object (for lint): the first is what {@link parsePluginConf} throws. */
export function checkPluginConf(bytes: Uint8Array | string): readonly ConfigIssue[] {
  const decoded = decodeJson(bytes, PLUGIN_PREFIX, NUMBERS_UNDER);
  return decoded.ok ? checkPluginValue(decoded.value, decoded.text).issues : [decoded.issue];
}
