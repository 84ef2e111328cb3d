export { delegatingIpam, invokeExec, toCurrent } from "./ipam.ts";
export type { DelegateExec, Ipam, IpamDeps, IpamFactory } from "./ipam.ts";
export type { PluginPorts } from "./ports.ts";
export { cryptoBytes, randomVethName } from "./veth.ts";
export type { RandomBytes } from "./veth.ts";
export type { PlanStep } from "./steps.ts";
export { opsOf, undoOf } from "./steps.ts";
export { lazyLinuxFirewall } from "./lazy-firewall.ts";
