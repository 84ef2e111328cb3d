/**
 * Wrapping a single-plugin config into a one-plugin list (CF-2, SC-2, §2.7 step 4):
 * libcni's `ConfListFromConf`.
 */
import { isJsonObject } from "@tscni/spec/go";
import { decodeJson } from "./_json.ts";
import { issueToError } from "./issue.ts";
import { parseConfList } from "./conf-list.ts";
import { PLUGIN_PREFIX } from "./plugin-conf.ts";
import type { NetworkConfig, NetworkConfigList } from "./types.ts";

/**
 * Builds `{"cniVersion":…, "name":…, "plugins":[<the original object>]}` and parses it as
 * a list. A missing `cniVersion` becomes `""`, which compares as 0.1.0 (SC-2).
 *
 * @example confToList(parsePluginConf('{"name":"n","type":"bridge"}')).cniVersion // ""
 */
export function confToList(conf: NetworkConfig, source?: string): NetworkConfigList {
  const decoded = decodeJson(conf.bytes, PLUGIN_PREFIX);
  if (!decoded.ok) throw issueToError(decoded.issue, source);
  const original = isJsonObject(decoded.value) ? decoded.value : {};
  const name = typeof conf.network.name === "string" ? conf.network.name : "";
  const cniVersion = typeof conf.network.cniVersion === "string" ? conf.network.cniVersion : "";
  const bytes = JSON.stringify({ cniVersion, name, plugins: [original] });
  return parseConfList(bytes, source);
}
