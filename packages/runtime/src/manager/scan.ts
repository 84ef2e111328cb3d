/**
 * Finding the default pod network in a config dir as kubelet's CNI network plugin does
 * (BRIEF seed design 1): the first valid file by name whose plugins are all installed.
 */
import { defaultNetworkCandidates, readConfDir, readDropInDir } from "@tscni/config";
import type { NetworkConfigList } from "@tscni/config";
import { CniError } from "@tscni/spec";
import type { CniRuntime } from "../cni-runtime.ts";

/** A network ready to attach pods to: its list, the runtime that finds its plugins, its capabilities. */
export interface PodNetwork {
  readonly list: NetworkConfigList;
  readonly runtime: CniRuntime;
  /** Where its plugins are looked up: the vendor dir, then the bin dirs. */
  readonly paths: readonly string[];
  /** The capabilities its plugins declare and enable, sorted. */
  readonly capabilities: readonly string[];
}

/** The outcome of one read of the config dir. */
export interface DefaultNetworkScan {
  /** The default network, or undefined when no file is valid. */
  readonly network: PodNetwork | undefined;
  /** One line per file skipped before the winner (or every file when none won). */
  readonly warnings: readonly string[];
  /** Why there is no network: `no networks found in <dir>` or `no valid networks found in <dir>`. */
  readonly reason?: string;
}

/** How a scan finds config files and builds runtimes. */
export interface ScanOptions {
  readonly confDir: string;
  readonly binDirs: readonly string[];
  /** Prefix of the vendor dir `<prefix>/opt/<type>/bin`; default "" (the root). */
  readonly vendorPrefix?: string;
  /** Builds the runtime of a network from its plugin search path. */
  readonly makeRuntime: (paths: readonly string[]) => CniRuntime;
}

/**
 * The plugin search path of a network: kubelet's vendor dir `<prefix>/opt/<type>/bin`,
 * named after the first plugin's type, then the bin dirs.
 *
 * @example pluginPaths(list, ["/opt/cni/bin"]) // ["/opt/bridge/bin", "/opt/cni/bin"]
 */
export function pluginPaths(list: NetworkConfigList, binDirs: readonly string[], vendorPrefix = ""): string[] {
  const first = list.plugins[0]?.network.type;
  return first === undefined || first === "" ? [...binDirs] : [`${vendorPrefix}/opt/${first}/bin`, ...binDirs];
}

function reason(err: unknown): string {
  return err instanceof CniError ? err.toString() : err instanceof Error ? err.message : String(err);
}

/**
 * Reads `confDir` and returns the default network: files ending `.conf`, `.conflist` or
 * `.json`, sorted by name; a `.conf` is wrapped into a one-plugin list, a `.conf` without
 * `type` and an empty list are skipped with a warning, and so is a network whose plugins
 * are not all installed or do not support its version (kubelet's ValidateNetworkList).
 *
 * @example (await scanDefaultNetwork({ confDir, binDirs, makeRuntime })).network?.list.name
 */
export async function scanDefaultNetwork(options: ScanOptions): Promise<DefaultNetworkScan> {
  const { confDir } = options;
  let files;
  try {
    files = readConfDir(confDir, [".conf", ".conflist", ".json"]);
  } catch (err) {
    return { network: undefined, warnings: [], reason: reason(err) };
  }
  if (files.length === 0) return { network: undefined, warnings: [], reason: `no networks found in ${confDir}` };
  const warnings: string[] = [];
  let candidates;
  try {
    candidates = defaultNetworkCandidates(files, readDropInDir);
  } catch (err) {
    return { network: undefined, warnings, reason: reason(err) };
  }
  for (const candidate of candidates) {
    if (candidate.network === undefined) {
      warnings.push(candidate.warning);
      continue;
    }
    const list = candidate.network;
    const paths = pluginPaths(list, options.binDirs, options.vendorPrefix);
    const runtime = options.makeRuntime(paths);
    try {
      const capabilities = await runtime.validateNetworkList(list);
      return { network: { list, runtime, paths, capabilities }, warnings };
    } catch (err) {
      warnings.push(`${candidate.path}: error validating network ${JSON.stringify(list.name)}: ${reason(err)}`);
    }
  }
  return { network: undefined, warnings, reason: `no valid networks found in ${confDir}` };
}
