/**
 * The pod-network manager: what kubelet's CNI network plugin does for a node (BRIEF seed
 * design 1). It keeps the default network of a config dir, attaches each pod to the
 * loopback network then to the default network, and detaches it again.
 */
import type { Exec } from "@tscni/invoke";
import type { Result } from "@tscni/spec";
import { CniRuntime } from "../cni-runtime.ts";
import type { RuntimeConf } from "../runtime-conf.ts";
import { NetworkNotInitializedError } from "./errors.ts";
import { loopbackNetwork } from "./loopback.ts";
import { podRuntimeConf } from "./pod-conf.ts";
import type { PodPortMapping, PodRef } from "./pod-conf.ts";
import { pluginPaths, scanDefaultNetwork } from "./scan.ts";
import type { DefaultNetworkScan, PodNetwork } from "./scan.ts";

/** kubelet's default config dir. */
export const DEFAULT_CONF_DIR = "/etc/cni/net.d";
/** kubelet's default plugin dir. */
export const DEFAULT_BIN_DIR = "/opt/cni/bin";

/** Where a {@link PodNetworkManager} finds configs and plugins, and how it runs them. */
export interface PodNetworkManagerOptions {
  /** Default `/etc/cni/net.d`. */
  readonly confDir?: string;
  /** Default `["/opt/cni/bin"]`; searched after the vendor dir. */
  readonly binDirs?: readonly string[];
  /** Prefix of the vendor dir `<prefix>/opt/<type>/bin`; default "" (the root). */
  readonly vendorPrefix?: string;
  /** The result cache dir; default `/var/lib/cni`. */
  readonly cacheDir?: string;
  readonly exec?: Exec;
  readonly timeoutMs?: number;
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Receives each warning once while it lasts (a skipped file, a failed loopback DEL). */
  readonly warn?: (message: string) => void;
}

/** The pod details beyond its identity. */
export interface PodOptions {
  readonly podUID?: string;
  /** The pod's published ports; on teardown, absent means "as cached by the ADD" (CAP-3). */
  readonly portMappings?: readonly PodPortMapping[];
}

/**
 * Attaches pods to the node's default network, as kubelet's CNI network plugin does.
 *
 * @example
 * const pods = new PodNetworkManager({ confDir: "/etc/cni/net.d", binDirs: ["/opt/cni/bin"] });
 * await pods.status();
 * await pods.setUpPod("default", "web", "abc123", "/run/netns/abc123", { portMappings: [] });
 */
export class PodNetworkManager {
  readonly confDir: string;
  readonly binDirs: readonly string[];
  readonly #options: PodNetworkManagerOptions;
  readonly #loopback: PodNetwork;
  #scan: DefaultNetworkScan | undefined;
  #warned = new Set<string>();

  constructor(options: PodNetworkManagerOptions = {}) {
    this.#options = options;
    this.confDir = options.confDir ?? DEFAULT_CONF_DIR;
    this.binDirs = [...(options.binDirs ?? [DEFAULT_BIN_DIR])];
    const list = loopbackNetwork();
    const paths = pluginPaths(list, this.binDirs, options.vendorPrefix);
    this.#loopback = { list, paths, runtime: this.makeRuntime(paths), capabilities: [] };
  }

  /** A runtime searching `paths` that shares this manager's cache and exec. */
  makeRuntime(paths: readonly string[]): CniRuntime {
    const o = this.#options;
    return new CniRuntime({
      paths,
      ...(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {}),
      ...(o.exec !== undefined ? { exec: o.exec } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.baseEnv !== undefined ? { baseEnv: o.baseEnv } : {}),
    });
  }

  /** The default network of the last read, if any. */
  get defaultNetwork(): PodNetwork | undefined {
    return this.#scan?.network;
  }

  /** The internal loopback network attached before the default one. */
  get loopbackNetwork(): PodNetwork {
    return this.#loopback;
  }

  /** The files skipped by the last read, one line each. */
  get warnings(): readonly string[] {
    return this.#scan?.warnings ?? [];
  }

  /**
   * Re-reads the config dir. The new read replaces the old one, so removing the last valid
   * file makes the manager not initialized again [DIFF: old kubelet kept the last good network].
   */
  async sync(): Promise<DefaultNetworkScan> {
    const scan = await scanDefaultNetwork({
      confDir: this.confDir,
      binDirs: this.binDirs,
      ...(this.#options.vendorPrefix !== undefined ? { vendorPrefix: this.#options.vendorPrefix } : {}),
      makeRuntime: (paths) => this.makeRuntime(paths),
    });
    this.#scan = scan;
    this.#report(scan.warnings);
    return scan;
  }

  /** Re-reads the config dir and returns the default network; throws {@link NetworkNotInitializedError} when there is none. */
  async status(): Promise<PodNetwork> {
    return this.#initialized(await this.sync());
  }

  /** The default network, reading the dir first if it was never read; throws when there is none. */
  async network(): Promise<PodNetwork> {
    return this.#initialized(this.#scan?.network !== undefined ? this.#scan : await this.sync());
  }

  /**
   * Attaches a pod: the loopback network first, then the default network; returns the
   * default network's result. A failure of either fails the set-up.
   */
  async setUpPod(
    namespace: string,
    name: string,
    podInfraContainerID: string,
    netnsPath: string,
    options: PodOptions = {},
  ): Promise<Result> {
    const network = await this.network();
    const pod = podRef(namespace, name, podInfraContainerID, options);
    // kubelet always sends the capability, an empty list when nothing is published.
    const rt = podRuntimeConf(pod, netnsPath, options.portMappings ?? []);
    await this.#loopback.runtime.addNetworkList(this.#loopback.list, rt);
    return network.runtime.addNetworkList(network.list, rt);
  }

  /**
   * Detaches a pod from the default network. A missing netns (`netnsPath` empty or gone)
   * is fine (DEL-2), and so is a network already deleted by an earlier attempt (kubelet
   * ignores "no such file or directory"). The loopback DEL that clears its cache record
   * may fail without failing the teardown, as in kubelet.
   */
  async tearDownPod(
    namespace: string,
    name: string,
    podInfraContainerID: string,
    netnsPath: string,
    options: PodOptions = {},
  ): Promise<void> {
    const network = await this.network();
    const pod = podRef(namespace, name, podInfraContainerID, options);
    const base = podRuntimeConf(pod, netnsPath, options.portMappings);
    try {
      await this.#loopback.runtime.delNetworkList(this.#loopback.list, base);
    } catch (err) {
      this.#options.warn?.(`failed to delete the loopback network of pod ${namespace}/${name}: ${String(err)}`);
    }
    const rt = options.portMappings !== undefined ? base : await withCachedCapabilities(network, base);
    try {
      await network.runtime.delNetworkList(network.list, rt);
    } catch (err) {
      if (String(err).includes("no such file or directory")) return;
      throw err;
    }
  }

  #initialized(scan: DefaultNetworkScan): PodNetwork {
    if (scan.network === undefined)
      throw new NetworkNotInitializedError(scan.reason ?? `no valid networks found in ${this.confDir}`, scan.warnings);
    return scan.network;
  }

  #report(warnings: readonly string[]): void {
    const now = new Set(warnings);
    for (const w of now) if (!this.#warned.has(w)) this.#options.warn?.(w);
    this.#warned = now;
  }
}

function podRef(namespace: string, name: string, podInfraContainerID: string, options: PodOptions): PodRef {
  return { namespace, name, podInfraContainerID, ...(options.podUID !== undefined ? { podUID: options.podUID } : {}) };
}

/** The ADD's capability arguments replayed on DEL (CAP-3), so portmap can remove its rules. */
async function withCachedCapabilities(network: PodNetwork, rt: RuntimeConf): Promise<RuntimeConf> {
  try {
    const cached = await network.runtime.getNetworkListCachedConfig(network.list, rt);
    const caps = cached?.rt.capabilityArgs;
    return caps !== undefined ? { ...rt, capabilityArgs: caps } : rt;
  } catch {
    return rt; // an unreadable record must not block DEL (CACHE-7)
  }
}
