/**
 * libcni decodes a plugin object into its `PluginConf` struct (PC-6) with Go's
 * encoding/json, which type-checks EVERY occurrence of a field's key, repeated or spelt in
 * another letter case, and merges them in order; JSON.parse keeps only the last. So
 * `{"nAmE":0,"name":"a","type":"x"}` is refused by libcni (found by `cni fuzz config
 * --against`, issue 15). The valibot path stays the common one; this one runs only when a
 * key repeats or a known key is not spelt exactly, which a cheap scan tells.
 */
import { type GoType, goDecodeInto, goFoldName, goRepeatsKeys, isJsonObject } from "@tscni/spec/go";
import { invalid, type ConfigIssue } from "./issue.ts";
import { VALID_ATTACHMENTS_KEY } from "./plugin-schema.ts";

const STRING: GoType = { kind: "string" };
const STRINGS: GoType = { kind: "slice", name: "[]string", elem: STRING };

/** libcni's `types.PluginConf` (upstream main; v1.1's NetConf lacks only the attachments). */
export const PLUGIN_CONF_TYPE: GoType = {
  kind: "struct",
  name: "types.PluginConf",
  struct: "PluginConf",
  fields: {
    cniVersion: STRING,
    name: STRING,
    type: STRING,
    capabilities: { kind: "map", name: "map[string]bool", elem: { kind: "bool" } },
    ipam: { kind: "struct", name: "types.IPAM", struct: "IPAM", fields: { type: STRING } },
    dns: {
      kind: "struct",
      name: "types.DNS",
      struct: "DNS",
      fields: { nameservers: STRINGS, domain: STRING, search: STRINGS, options: STRINGS },
    },
    prevResult: { kind: "map", name: "map[string]interface {}", elem: { kind: "any" } },
    [VALID_ATTACHMENTS_KEY]: {
      kind: "slice",
      name: "[]types.GCAttachment",
      elem: {
        kind: "struct",
        name: "types.GCAttachment",
        struct: "GCAttachment",
        fields: { containerID: STRING, ifname: STRING },
      },
    },
  },
};

/** True when a struct level of `value` has a key that matches a field without being its exact name. */
export function hasFoldedKey(value: unknown, type: GoType = PLUGIN_CONF_TYPE): boolean {
  if (type.kind === "slice") return Array.isArray(value) && value.some((e) => hasFoldedKey(e, type.elem));
  if (type.kind !== "struct" || !isJsonObject(value)) return false;
  for (const key of Object.keys(value)) {
    const sub = type.fields[key];
    if (Object.hasOwn(type.fields, key)) {
      if (sub !== undefined && hasFoldedKey(value[key], sub)) return true;
    } else if (LENGTHS.has(key.length) && FOLDED.has(goFoldName(key))) return true;
  }
  return false;
}

/** The folded names of every field at any struct level of `type` (a superset check is enough). */
function foldedNames(type: GoType, into = new Set<string>()): Set<string> {
  if (type.kind === "slice") foldedNames(type.elem, into);
  if (type.kind !== "struct") return into;
  for (const [f, sub] of Object.entries(type.fields)) foldedNames(sub, into.add(goFoldName(f)));
  return into;
}

const FOLDED = foldedNames(PLUGIN_CONF_TYPE);
/** Their lengths: the runes Go folds onto ASCII are one UTF-16 unit each, so a key of another length cannot match. */
const LENGTHS = new Set([...FOLDED].map((f) => f.length));

/**
 * True when Go would read `text` differently from its JSON.parse value `parsed`: a key
 * given twice anywhere (the text has more keys than the value), or a known field's key
 * in another spelling. Only quotes and a regex run when neither is the case.
 */
export function needsEveryOccurrence(text: string, parsed: unknown): boolean {
  return hasFoldedKey(parsed) || goRepeatsKeys(text, parsed);
}

/** The outcome of decoding every occurrence: the merged object, or the type errors (Go's first first). */
export interface EveryOccurrence {
  /** The known fields as Go merged them, the other keys as JSON.parse left them. */
  readonly object: Record<string, unknown> | undefined;
  readonly issues: readonly ConfigIssue[];
}

/** Decodes `text` as libcni does (every occurrence); `parsed` is its JSON.parse value. */
export function decodeEveryOccurrence(text: string, parsed: unknown, prefix: string): EveryOccurrence {
  const { value, errors } = goDecodeInto(text, PLUGIN_CONF_TYPE);
  if (errors.length > 0)
    return { object: undefined, issues: errors.map((e) => invalid(e.path, `${prefix}${e.message}`)) };
  if (!isJsonObject(parsed)) return { object: undefined, issues: [] };
  const fields = PLUGIN_CONF_TYPE.kind === "struct" ? PLUGIN_CONF_TYPE.fields : {};
  // Keys Go has no field for pass through as the last occurrence (PC-5).
  const rest = Object.entries(parsed).filter(([k]) => !Object.hasOwn(fields, k) && !FOLDED_TOP.has(goFoldName(k)));
  return { object: Object.fromEntries([...rest, ...Object.entries(value as Record<string, unknown>)]), issues: [] };
}

const FOLDED_TOP = new Set(
  Object.keys(PLUGIN_CONF_TYPE.kind === "struct" ? PLUGIN_CONF_TYPE.fields : {}).map(goFoldName),
);
