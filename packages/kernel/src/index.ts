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
  DummyAdd,
  IpvlanAdd,
  IpvlanFlag,
  IpvlanMode,
  MacvlanAdd,
  MacvlanMode,
} from "./ops.ts";
export type { RuleOp, RuleInfo } from "./rule.ts";
export { isDefaultRule, ruleFamily } from "./rule.ts";
export { routeDumpOrder } from "./route-order.ts";
export type { VrfAdd } from "./vrf.ts";
export type { FilterAdd, IfbAdd, MirredAction, QdiscAdd, QdiscDel, QdiscInfo, TbfParams, TcOp } from "./ops-tc.ts";
export { ETH_P_ALL, TC_H_INGRESS, TC_H_ROOT, tcHandle } from "./ops-tc.ts";
export { handleText, TICKS_PER_USEC } from "./lines-tc.ts";
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
