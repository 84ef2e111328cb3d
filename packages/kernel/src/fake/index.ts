export { FakeKernel } from "./fake-kernel.ts";
export type { FailurePredicate, FakeKernelOptions } from "./fake-kernel.ts";
export type { NamespaceSnapshot } from "./snapshot.ts";
export { diffSnapshots, routeLine } from "./diff.ts";
export { canReach, trace, viewOf } from "./reachability.ts";
export type { Trace } from "./reachability.ts";
export type { Endpoint, NetView } from "./neighbours.ts";
export { attachToBridge, containerNs, enableForwarding, hostBridge, ptpLink, scenario } from "./scenario.ts";
export type { Attachment, Scenario } from "./scenario.ts";
