/**
 * The runtime facade: what Go's `libcni.CNIConfig` offers a container runtime (§7.1).
 */
import { DEFAULT_TIMEOUT_MS, defaultExec, getVersionInfo } from "@tscni/invoke";
import type { Exec } from "@tscni/invoke";
import type { Result, VersionInfo } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { addNetworkList } from "./add.ts";
import { type UnreadableRecord, cachedAttachments, unreadableRecords } from "./attachments.ts";
import { DEFAULT_CACHE_DIR, cacheFileName, decodeCachedConfig } from "./cache.ts";
import { DiskCache } from "./cache-disk.ts";
import { BlockingDiskCache } from "./cache-disk-blocking.ts";
import { checkNetworkList } from "./check.ts";
import { cachedResult, invokeOptions } from "./context.ts";
import type { RuntimeContext } from "./context.ts";
import { delNetworkList } from "./del.ts";
import { gcNetworkList } from "./gc.ts";
import type { GCArgs, NetworkAttachment, RuntimeConf } from "./runtime-conf.ts";
import { serialised } from "./serialise.ts";
import { statusNetworkList } from "./status.ts";
import { validateNetworkList } from "./validate.ts";

/** How a {@link CniRuntime} finds and runs plugins and where it caches results. */
export interface CniRuntimeOptions {
  /** Directories searched for plugin binaries, in order (FP-4). */
  readonly paths: readonly string[];
  /** The cache directory; default `/var/lib/cni` (CACHE-1). */
  readonly cacheDir?: string;
  /** Blocking cache calls, for a one-shot process (`cache-disk-blocking.ts`); default false. */
  readonly blockingCache?: boolean;
  /** How plugins run; default the real Bun exec. */
  readonly exec?: Exec;
  /** Per plugin call; default two minutes (EX-2: libcni has none). */
  readonly timeoutMs?: number;
  /** The environment plugins inherit (P-8); default `process.env`. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs network configuration lists against plugins, as libcni does.
 *
 * @example
 * const cni = new CniRuntime({ paths: ["/opt/cni/bin"] });
 * const result = await cni.addNetworkList(list, { containerID: "c1", netns: "/run/netns/c1", ifName: "eth0" });
 */
export class CniRuntime {
  readonly #ctx: RuntimeContext;

  constructor(options: CniRuntimeOptions) {
    this.#ctx = {
      paths: [...options.paths],
      exec: options.exec ?? defaultExec(),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      cache: new (options.blockingCache === true ? BlockingDiskCache : DiskCache)(
        options.cacheDir ?? DEFAULT_CACHE_DIR,
      ),
      ...(options.baseEnv !== undefined ? { baseEnv: options.baseEnv } : {}),
    };
  }

  /** The cache directory in use. */
  get cacheDir(): string {
    return this.#ctx.cache.cacheDir;
  }

  /** ADD: plugins in order with prevResult threading; caches the final result (AL-1). Same-attachment calls never overlap (LC-2). */
  addNetworkList(list: NetworkConfigList, rt: RuntimeConf): Promise<Result> {
    return serialised(this.#ctx, list.name, rt, () => addNetworkList(this.#ctx, list, rt));
  }

  /** CHECK: plugins in order with the cached result (AL-2). */
  checkNetworkList(list: NetworkConfigList, rt: RuntimeConf): Promise<void> {
    return serialised(this.#ctx, list.name, rt, () => checkNetworkList(this.#ctx, list, rt));
  }

  /** DEL: plugins in reverse order with the cached result (AL-3). */
  delNetworkList(list: NetworkConfigList, rt: RuntimeConf): Promise<void> {
    return serialised(this.#ctx, list.name, rt, () => delNetworkList(this.#ctx, list, rt));
  }

  /** GC: DEL stale cached attachments, then GC on each plugin (§7.7). */
  gcNetworkList(list: NetworkConfigList, args: GCArgs | undefined): Promise<void> {
    return gcNetworkList(this.#ctx, list, args);
  }

  /** STATUS: the first plugin that is not ready fails it (§7.8). */
  getStatusNetworkList(list: NetworkConfigList): Promise<void> {
    return statusNetworkList(this.#ctx, list);
  }

  /** VERSION on every plugin; returns the enabled capabilities (VN-5). */
  validateNetworkList(list: NetworkConfigList): Promise<string[]> {
    return validateNetworkList(this.#ctx, list);
  }

  /** The version info of plugin `type` found in the paths. */
  async getVersionInfo(type: string): Promise<VersionInfo> {
    const path = await this.#ctx.exec.findInPath(type, this.#ctx.paths);
    return getVersionInfo(path, invokeOptions(this.#ctx));
  }

  /** The cached attachments, of one container when `containerID` is given (§7.9). */
  getCachedAttachments(containerID = ""): Promise<NetworkAttachment[]> {
    return cachedAttachments(this.#ctx.cache, containerID);
  }

  /** The cache files that name an attachment but cannot be decoded (their attachment is unknown). */
  getUnreadableCacheRecords(): Promise<UnreadableRecord[]> {
    return unreadableRecords(this.#ctx.cache);
  }

  /** The cached ADD result in the list's version, or undefined when none is cached (CACHE-5). */
  getNetworkListCachedResult(list: NetworkConfigList, rt: RuntimeConf): Promise<Result | undefined> {
    return cachedResult(this.#ctx, list, rt);
  }

  /** The cached config bytes and runtime arguments of an attachment, or undefined (CACHE-6). */
  async getNetworkListCachedConfig(
    list: NetworkConfigList,
    rt: RuntimeConf,
  ): Promise<{ config: Uint8Array; rt: RuntimeConf } | undefined> {
    const text = await this.#ctx.cache.read(cacheFileName(list.name, rt));
    return text === undefined ? undefined : decodeCachedConfig(text, list.name, rt);
  }
}
