/**
 * `cni lint`, the plugin side: is each plugin (and IPAM plugin) of a network in
 * `CNI_PATH`, and does it support the network's version (VN-5: exact string match, an
 * empty version counting as 0.1.0)? Lookups go through a port so tests need no binaries.
 */
import type { NetworkConfigList } from "@tscni/config";

/** Finds plugins and asks them their versions. */
export interface PluginProbe {
  /** The path of plugin `type`; throws (with libcni's text) when it is not found. */
  readonly find: (type: string) => Promise<string>;
  /** The versions the plugin at `path` reports to VERSION; throws when it does not answer. */
  readonly versions: (path: string) => Promise<readonly string[]>;
}

/** What lint found out about one plugin of a network. */
export interface PluginReport {
  readonly type: string;
  /** `plugins[1]` or `plugins[1].ipam`: where it is named in the list. */
  readonly where: string;
  readonly path: string | undefined;
  readonly supported: readonly string[] | undefined;
  readonly problem: string | undefined;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Wraps a probe so that each type is looked up once and each binary asked once per lint run. */
export function sharedProbe(probe: PluginProbe): PluginProbe {
  const found = new Map<string, Promise<string>>();
  const asked = new Map<string, Promise<readonly string[]>>();
  return {
    find: (type) => found.get(type) ?? (found.set(type, probe.find(type)), found.get(type) as Promise<string>),
    versions: (path) =>
      asked.get(path) ?? (asked.set(path, probe.versions(path)), asked.get(path) as Promise<readonly string[]>),
  };
}

async function checkOne(type: string, where: string, version: string, probe: PluginProbe): Promise<PluginReport> {
  let path: string;
  try {
    path = await probe.find(type);
  } catch (err) {
    return {
      type,
      where,
      path: undefined,
      supported: undefined,
      problem: `${where}: plugin "${type}" is not installed: ${message(err)}`,
    };
  }
  let supported: readonly string[];
  try {
    supported = await probe.versions(path);
  } catch (err) {
    return {
      type,
      where,
      path,
      supported: undefined,
      problem: `${where}: plugin "${type}" (${path}) did not answer VERSION: ${message(err)}`,
    };
  }
  const ok = supported.includes(version);
  const problem = ok
    ? undefined
    : `${where}: plugin ${type} does not support config version "${version}" (it supports ${supported.join(", ") || "nothing"})`;
  return { type, where, path, supported, problem };
}

/**
 * Checks every plugin and IPAM plugin of `list` against `probe`.
 *
 * @example await checkPlugins(list, probe) // [{ type: "bridge", path: "/opt/cni/bin/bridge", ... }]
 */
export async function checkPlugins(list: NetworkConfigList, probe: PluginProbe): Promise<PluginReport[]> {
  const version = list.cniVersion === "" ? "0.1.0" : list.cniVersion;
  const checks: Promise<PluginReport>[] = [];
  list.plugins.forEach(({ network }, i) => {
    checks.push(checkOne(network.type, `plugins[${i}]`, version, probe));
    const ipam = network.ipam?.type;
    if (typeof ipam === "string" && ipam !== "") checks.push(checkOne(ipam, `plugins[${i}].ipam`, version, probe));
  });
  return Promise.all(checks);
}
