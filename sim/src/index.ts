export { FakeKernel } from "./fake-kernel.ts";
export type { FailurePredicate, FakeKernelOptions } from "./fake-kernel.ts";
export type { NamespaceSnapshot } from "./snapshot.ts";
export { diffSnapshots, routeLine } from "./diff.ts";
