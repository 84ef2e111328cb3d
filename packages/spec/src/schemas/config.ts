/**
 * Valibot schemas of the network configuration (SPEC.md §2): the plugin configuration
 * object with the fields Go's `types.PluginConf` decodes (PC-6) and the configuration
 * list (§2.2, §2.6). Unknown keys pass through unchanged (PC-5); a known key set to null
 * is dropped from the typed output, as Go leaves it at its zero value.
 */
import * as v from "valibot";
import { isJsonObject } from "../_gojson.ts";
import { goTypeName } from "../go/names.ts";
import type { NetConfList, PluginConf } from "../types.ts";
import { parseVersion } from "../version.ts";
import { typeMessage } from "./_go.ts";

const optionalString = v.optional(v.nullable(v.string(typeMessage("string"))));

function _object<const TEntries extends v.ObjectEntries>(entries: TEntries, goType: string) {
  return v.pipe(v.custom<Record<string, unknown>>(isJsonObject, typeMessage(goType)), v.looseObject(entries));
}

/** Removes the listed keys whose value is null (Go decodes null as "unset"). */
function _dropNulls<T extends Record<string, unknown>>(obj: T, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...obj };
  for (const key of keys) if (out[key] === null) delete out[key];
  return out as T;
}

const stringList = v.optional(v.nullable(v.array(v.string(typeMessage("string")), typeMessage("[]string"))));

/** The `dns` object of a configuration (PC-4); extra keys pass through. */
export const ConfDNSSchema = _object(
  { nameservers: stringList, domain: optionalString, search: stringList, options: stringList },
  "DNS",
);

/** The `ipam` object (PC-4): `type` names the IPAM plugin; the rest is the plugin's. */
export const IPAMConfSchema = _object({ type: optionalString }, "IPAM");

/** One `cni.dev/valid-attachments` entry (GC-2). */
export const AttachmentSchema = v.pipe(
  v.custom<Record<string, unknown>>(isJsonObject, typeMessage("GCAttachment")),
  v.object({
    containerID: v.optional(v.nullable(v.string(typeMessage("string"))), ""),
    ifname: v.optional(v.nullable(v.string(typeMessage("string"))), ""),
  }),
  v.transform((a) => ({ containerID: a.containerID ?? "", ifname: a.ifname ?? "" })),
);

const KNOWN_PLUGIN_KEYS = [
  "cniVersion",
  "name",
  "capabilities",
  "ipam",
  "dns",
  "prevResult",
  "cni.dev/valid-attachments",
];

/**
 * A plugin configuration object (§2.3, PC-6). `type` must be a non-empty string
 * (`missing 'type'`, SC-1); a wrong JSON type for a known key is an error, e.g.
 * `"capabilities":{"portMappings":"yes"}`.
 */
export const PluginConfSchema = v.pipe(
  _object(
    {
      cniVersion: optionalString,
      name: optionalString,
      type: v.pipe(v.nullish(v.string(typeMessage("string")), ""), v.nonEmpty("missing 'type'")),
      capabilities: v.optional(
        v.nullable(
          v.pipe(
            v.custom<Record<string, unknown>>(isJsonObject, typeMessage("map[string]bool")),
            v.record(v.string(), v.nullable(v.boolean(typeMessage("bool")))),
          ),
        ),
      ),
      ipam: v.optional(v.nullable(IPAMConfSchema)),
      dns: v.optional(v.nullable(ConfDNSSchema)),
      prevResult: v.optional(
        v.nullable(v.custom<Record<string, unknown>>(isJsonObject, typeMessage("map[string]interface {}"))),
      ),
      "cni.dev/valid-attachments": v.optional(v.nullable(v.array(AttachmentSchema, typeMessage("[]GCAttachment")))),
    },
    "PluginConf",
  ),
  v.transform((conf): PluginConf => {
    const out = _dropNulls(conf, KNOWN_PLUGIN_KEYS);
    // A null capability decodes to false in Go's map[string]bool.
    if (conf.capabilities) {
      out.capabilities = Object.fromEntries(Object.entries(conf.capabilities).map(([k, b]) => [k, b === true]));
    }
    return out as PluginConf;
  }),
);

/** A boolean flag of a list (§2.6 step 5): a JSON bool or "true"/"false" in any case. */
function _flag(key: string) {
  return v.optional(
    v.pipe(
      v.custom<boolean | string>(
        (x) => typeof x === "boolean" || (typeof x === "string" && /^(true|false)$/i.test(x)),
        (issue) =>
          typeof issue.input === "string"
            ? `invalid value "${issue.input}" for ${key}`
            : `invalid type ${goTypeName(issue.input)} for ${key}`,
      ),
      v.transform((x): boolean => x === true || (typeof x === "string" && x.toLowerCase() === "true")),
    ),
  );
}

/**
 * A network configuration list (§2.2, §2.6): `name` required, flags as bools or
 * "true"/"false" strings, `cniVersions` entries that parse as versions (VN-6), and a
 * non-empty `plugins` array when present. Unknown keys pass through.
 */
export const NetConfListSchema = v.pipe(
  v.custom<Record<string, unknown>>(isJsonObject, typeMessage("configuration list")),
  v.looseObject(
    {
      name: v.custom<string>(
        (x) => typeof x === "string",
        (issue) => (issue.input === undefined ? "no name" : `invalid name type ${goTypeName(issue.input)}`),
      ),
      cniVersion: v.optional(v.string("invalid cniVersion type")),
      cniVersions: v.optional(
        v.array(
          v.pipe(
            v.string("invalid type for cniVersions entry"),
            v.check(
              (s) => {
                try {
                  parseVersion(s);
                  return true;
                } catch {
                  return false;
                }
              },
              (issue) => `invalid cniVersions entry ${String(issue.input)}`,
            ),
          ),
          "invalid type for cniVersions",
        ),
      ),
      disableCheck: _flag("disableCheck"),
      disableGC: _flag("disableGC"),
      loadOnlyInlinedPlugins: _flag("loadOnlyInlinedPlugins"),
      plugins: v.optional(
        v.pipe(
          v.custom<unknown[]>(Array.isArray, (issue) => `invalid 'plugins' type ${goTypeName(issue.input)}`),
          v.array(PluginConfSchema),
          v.nonEmpty("no plugins in list"),
        ),
      ),
      // The only required key: its absence is the object's one possible issue.
    },
    "no name",
  ),
  v.check(
    (list) => !(list.loadOnlyInlinedPlugins === true && list.plugins === undefined),
    "`loadOnlyInlinedPlugins` is true, and no 'plugins' key",
  ),
  v.transform((list): NetConfList => list),
);
