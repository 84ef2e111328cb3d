export { CniRuntime } from "./cni-runtime.ts";
export type { CniRuntimeOptions } from "./cni-runtime.ts";
export type { GCArgs, GCAttachment, NetworkAttachment, RuntimeConf } from "./runtime-conf.ts";
export { CACHE_KIND, DEFAULT_CACHE_DIR, cacheFileName, decodeAttachment, decodeCachedConfig, decodeCachedResult, encodeCacheRecord } from "./cache.ts";
export { DiskCache } from "./cache-disk.ts";
export { buildGCRequest, buildRequest, buildStatusRequest, injectConf, pluginDescription, runtimeConfigFor } from "./request.ts";
export { validateContainerID, validateInterfaceName, validateNetworkName } from "./validate-ids.ts";
