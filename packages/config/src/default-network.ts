/**
 * The default network as kubelet's CNI network plugin picks it (BRIEF seed design 1):
 * the first valid config among `.conf`, `.conflist` and `.json` files sorted by path;
 * invalid files are skipped with a warning instead of failing the load.
 */
import { CniError } from "@tscni/spec";
import { filesWithExtension } from "./_files.ts";
import { confListFromFile } from "./drop-ins.ts";
import { confToList } from "./conf-to-list.ts";
import { parsePluginConf } from "./plugin-conf.ts";
import type { ConfFile, DropInReader, NetworkConfigList } from "./types.ts";

/** One file considered for the default network: its list, or why it is skipped (the message names the file). */
export type DefaultCandidate =
  | { readonly path: string; readonly network: NetworkConfigList; readonly warning?: undefined }
  | { readonly path: string; readonly network?: undefined; readonly warning: string };

/** The default network (undefined when no file is valid) and the warnings of the files skipped before it. */
export interface DefaultNetworkPick {
  readonly network: NetworkConfigList | undefined;
  readonly warnings: readonly string[];
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function considerFile(file: ConfFile, dropIns: DropInReader | undefined): DefaultCandidate {
  const { path } = file;
  try {
    if (path.endsWith(".conflist")) {
      const network = confListFromFile(file, dropIns);
      // kubelet skips a list without plugins (libcni already rejects an empty `plugins`).
      if (network.plugins.length === 0) return { path, warning: `${path}: the list has no plugins` };
      return { path, network };
    }
    const conf = parsePluginConf(file.bytes, path);
    return { path, network: confToList(conf, path) };
  } catch (err) {
    if (!(err instanceof CniError)) throw err;
    const text = message(err);
    // kubelet's hint for a plugin object without "type": often a list saved as .conf.
    if (!path.endsWith(".conflist") && text.endsWith("missing 'type'")) {
      return { path, warning: `${text} (perhaps this is a .conflist?)` };
    }
    return { path, warning: text };
  }
}

/**
 * Every file kubelet would consider, in its order, each with its list or its warning.
 *
 * @example defaultNetworkCandidates(files).filter((c) => c.network !== undefined)
 */
export function defaultNetworkCandidates(files: readonly ConfFile[], dropIns?: DropInReader): DefaultCandidate[] {
  return filesWithExtension(files, [".conf", ".conflist", ".json"]).map((f) => considerFile(f, dropIns));
}

/**
 * Picks the default network: the first valid file wins; a `.conf` is wrapped into a list,
 * a `.conf` without `type` and an empty list are skipped with a warning.
 *
 * @example defaultNetwork(files).network?.name
 */
export function defaultNetwork(files: readonly ConfFile[], dropIns?: DropInReader): DefaultNetworkPick {
  const warnings: string[] = [];
  for (const candidate of defaultNetworkCandidates(files, dropIns)) {
    if (candidate.network !== undefined) return { network: candidate.network, warnings };
    warnings.push(candidate.warning);
  }
  return { network: undefined, warnings };
}
