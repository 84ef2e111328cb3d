/**
 * Plugin drop-ins (§2.9, CF-3): `<dir of the list file>/<network name>/*.conf`, one plugin
 * object per file, appended after the inline plugins unless `loadOnlyInlinedPlugins`.
 */
import { join, dirname } from "node:path";
import { CniError, ErrorCode } from "@tscni/spec";
import { filesWithExtension } from "./_files.ts";
import { parseConfList } from "./conf-list.ts";
import { parsePluginConf } from "./plugin-conf.ts";
import type { ConfFile, DropInReader, NetworkConfigList } from "./types.ts";

/** The drop-in directory of a list loaded from `listPath` (DI-1): not checked against the name rules (VAL-5). */
export function dropInDir(listPath: string, networkName: string): string {
  return join(dirname(listPath), networkName);
}

function readDropIns(dir: string, read: DropInReader | undefined): readonly ConfFile[] {
  if (read === undefined) return [];
  try {
    return read(dir);
  } catch (err) {
    if (err instanceof CniError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new CniError(ErrorCode.IOFailure, `failed to read plugin config files in ${dir}: ${reason}`);
  }
}

/**
 * Appends the drop-ins of a list loaded from `listPath` (DI-1, DI-2) and fails with
 * `no plugin configs found` when the list ends up empty (DI-3).
 */
export function withDropIns(list: NetworkConfigList, listPath: string, read?: DropInReader): NetworkConfigList {
  let plugins = list.plugins;
  if (!list.loadOnlyInlinedPlugins) {
    const dir = dropInDir(listPath, list.name);
    const files = filesWithExtension(readDropIns(dir, read), [".conf"]);
    plugins = [...plugins, ...files.map((f) => parsePluginConf(f.bytes, f.path))];
  }
  if (plugins.length === 0) throw new CniError(ErrorCode.InvalidNetworkConfig, `${listPath}: no plugin configs found`);
  return { ...list, plugins };
}

/**
 * Parses a list file and applies its drop-ins: libcni's `NetworkConfFromFile`, pure when
 * `read` is. Without `read`, no drop-ins are found (DI-4).
 */
export function confListFromFile(file: ConfFile, read?: DropInReader): NetworkConfigList {
  return withDropIns(parseConfList(file.bytes, file.path), file.path, read);
}
