/**
 * The typed results of config parsing: libcni's `PluginConfig` and `NetworkConfigList`.
 */
import type { PluginConf } from "@tscni/spec";

/** One plugin object of a list, with its raw bytes kept for request building. */
export interface NetworkConfig {
  network: PluginConf;
  bytes: Uint8Array;
}

/** A parsed network configuration list (libcni's NetworkConfigList). */
export interface NetworkConfigList {
  name: string;
  /** The effective version after `cniVersions` selection (VN-2, §2.6 step 4). */
  cniVersion: string;
  disableCheck: boolean;
  disableGC: boolean;
  loadOnlyInlinedPlugins: boolean;
  plugins: NetworkConfig[];
  /** The list's raw bytes (cached by the runtime). */
  bytes: Uint8Array;
  /** The file it came from, when known. */
  source?: string;
}

/** A file of a config directory: its full path and contents. */
export interface ConfFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/**
 * Reads the regular files directly in a drop-in directory (§2.9). Returns `[]` when the
 * directory does not exist (DI-2) and throws when it cannot be read.
 */
export type DropInReader = (dir: string) => readonly ConfFile[];
