export { HOST } from "./ops.ts";
export type {
  AddrOp,
  BridgeAdd,
  BridgePortSet,
  BridgeVlan,
  KernelBatch,
  KernelOp,
  LinkDel,
  LinkMove,
  LinkSet,
  Netns,
  RouteOp,
  RouteScope,
  SysctlSet,
  VethAdd,
  VlanAdd,
} from "./ops.ts";
export { KernelError } from "./kernel.ts";
export type { TapAdd } from "./ops.ts";
export type { AddrInfo, Kernel, KernelErrorKind, LinkInfo, RouteInfo } from "./kernel.ts";
export { renderBatch, SHELL_HOST_REF } from "./render.ts";
export type { RenderOptions } from "./render.ts";
export { renderOp, isSysctlKey } from "./lines.ts";
export type { OpLine, Tool } from "./lines.ts";
export { segmentBatch, resolveHost } from "./segments.ts";
export type { Segment } from "./segments.ts";
export { KernelOpSchema, KernelBatchSchema, parseKernelBatch, isInterfaceName, isCidr } from "./schema.ts";
