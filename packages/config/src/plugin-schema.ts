/**
 * The shape libcni's `types.PluginConf` decodes (PC-6), as valibot schemas. Each schema's
 * message is the Go type it stands for, so an issue turns into Go's own wording:
 * `json: cannot unmarshal string into Go struct field PluginConf.capabilities.x of type bool`.
 * JSON `null` is Go's "leave the zero value", so every field is nullish.
 */
import * as v from "valibot";
import { isJsonObject } from "@tscni/spec/go";
import type { Shape } from "./_fold.ts";

const goObject = (goType: string) => v.custom<Record<string, unknown>>(isJsonObject, goType);
const goString = v.nullish(v.string("string"));
const goStrings = v.nullish(v.array(v.nullish(v.string("string")), "[]string"));

/** The key libcni uses for GC's valid attachments (GC-2). */
export const VALID_ATTACHMENTS_KEY = "cni.dev/valid-attachments";

/** The known fields of PluginConf and its nested structs, for Go's case-insensitive key matching. */
export const PLUGIN_SHAPE: Shape = {
  cniVersion: null,
  name: null,
  type: null,
  capabilities: null,
  ipam: { type: null },
  dns: { nameservers: null, domain: null, search: null, options: null },
  prevResult: null,
  [VALID_ATTACHMENTS_KEY]: [{ containerID: null, ifname: null }],
};

/** The valibot schema of a (key-folded) plugin object, fields in Go's declaration order. */
export const PluginConfSchema = v.pipe(
  goObject("types.PluginConf"),
  v.looseObject({
    cniVersion: goString,
    name: goString,
    type: goString,
    capabilities: v.nullish(v.pipe(goObject("map[string]bool"), v.record(v.string(), v.nullish(v.boolean("bool"))))),
    ipam: v.nullish(v.pipe(goObject("types.IPAM"), v.looseObject({ type: goString }))),
    dns: v.nullish(
      v.pipe(
        goObject("types.DNS"),
        v.looseObject({ nameservers: goStrings, domain: goString, search: goStrings, options: goStrings }),
      ),
    ),
    prevResult: v.nullish(goObject("map[string]interface {}")),
    [VALID_ATTACHMENTS_KEY]: v.nullish(
      v.array(
        v.nullish(v.pipe(goObject("types.GCAttachment"), v.looseObject({ containerID: goString, ifname: goString }))),
        "[]types.GCAttachment",
      ),
    ),
  }),
);
