/**
 * The plugin decoders `cni fuzz config` adds to its target (issue 15): every plugin we
 * carry whose config decoding is synchronous, as @tscni/plugins/config-decoders runs it.
 */
import { DECODED_TYPES, decodePluginConfig } from "@tscni/plugins/config-decoders";
import type { PluginDecoding } from "@tscni/fuzz";

/** Our plugins' own config decoding, for the config target. */
export const pluginDecoding: PluginDecoding = {
  types: DECODED_TYPES,
  decode: (type, stdin, cniArgs) => decodePluginConfig(type, stdin, cniArgs),
};
