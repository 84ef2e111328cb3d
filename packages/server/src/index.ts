export {
  CNI_ENDPOINT,
  DEFAULT_SOCKET_PATH,
  WireErrorSchema,
  WireRequestSchema,
  WireResponseSchema,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  requestConfig,
} from "./wire.ts";
export type { Decoded, WireError, WireRequest, WireResponse } from "./wire.ts";
export { argValue, splitCniArgs as parseCniArgs } from "@tscni/spec/cni-args";
export type { CniArgsParse } from "@tscni/spec/cni-args";
export { COMMANDS, parseCniCall } from "./call.ts";
export type { CniCall, CniCommand } from "./call.ts";
export { runCniCall } from "./handle.ts";
export type { CallOutput } from "./handle.ts";
export { handleHttp } from "./http.ts";
export type { HttpContext } from "./http.ts";
export { CommandGate } from "./gate.ts";
export { DEFAULT_SYNC_INTERVAL_MS, startDaemon } from "./daemon.ts";
export type { CniDaemon, DaemonOptions } from "./daemon.ts";
export { main as shimMain, socketPathFor } from "./shim.ts";
export type { ShimIO } from "./shim.ts";
export { DEFAULT_LIMITS, daemonLimits } from "./limits.ts";
export type { DaemonLimits } from "./limits.ts";
export { DaemonMetrics, METRICS_CONTENT_TYPE } from "./metrics.ts";
export type { RefusalReason } from "./metrics.ts";
export { KeyedQueue } from "./keyed-queue.ts";
export { Limiter, QueueFullError } from "./limiter.ts";
export { errorResponse, listenBounded } from "./http-server.ts";
export type { BoundedServerOptions } from "./http-server.ts";
export { parseHead } from "./http-head.ts";
export type { RequestHead } from "./http-head.ts";
export { logLine, validTraceparent } from "./log.ts";
export type { LogFields, LogSink } from "./log.ts";
