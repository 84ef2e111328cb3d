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
export type { AddrInfo, Kernel, KernelErrorKind, LinkInfo, RouteInfo } from "./kernel.ts";
