export { CniRuntime } from "./cni-runtime.ts";
export type { CniRuntimeOptions } from "./cni-runtime.ts";
export type { GCArgs, GCAttachment, NetworkAttachment, RuntimeConf } from "./runtime-conf.ts";
export {
  CACHE_KIND,
  DEFAULT_CACHE_DIR,
  cacheFileName,
  decodeAttachment,
  decodeCachedConfig,
  decodeCachedResult,
  encodeCacheRecord,
} from "./cache.ts";
export { DiskCache } from "./cache-disk.ts";
export {
  buildGCRequest,
  buildRequest,
  buildStatusRequest,
  injectConf,
  pluginDescription,
  runtimeConfigFor,
} from "./request.ts";
export { validateContainerID, validateInterfaceName, validateNetworkName } from "./validate-ids.ts";
export { DEFAULT_BIN_DIR, DEFAULT_CONF_DIR, PodNetworkManager } from "./manager/pod-network-manager.ts";
export type { PodNetworkManagerOptions, PodOptions } from "./manager/pod-network-manager.ts";
export { NetworkNotInitializedError } from "./manager/errors.ts";
export { LOOPBACK_CONF_LIST, loopbackNetwork } from "./manager/loopback.ts";
export { POD_INTERFACE, podArgs, podRuntimeConf, portMappingsCapability } from "./manager/pod-conf.ts";
export type { PodPortMapping, PodRef, PortMappingArg } from "./manager/pod-conf.ts";
export { pluginPaths, scanDefaultNetwork } from "./manager/scan.ts";
export type { DefaultNetworkScan, PodNetwork, ScanOptions } from "./manager/scan.ts";
export type { UnreadableRecord } from "./attachments.ts";
export { InProcessExec } from "./in-process-exec.ts";
export type { InProcessExecOptions, InProcessIO, InProcessPlugins, InProcessRunner } from "./in-process-exec.ts";
export { lockDirOf } from "./serialise.ts";
