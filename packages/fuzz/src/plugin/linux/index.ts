export { createLinuxSandbox, deleteLiveNamespaces, liveNamespaces } from "./sandbox.ts";
export type { LinuxSandboxOptions } from "./sandbox.ts";
export { killTree } from "./kill-tree.ts";
