export { createLinuxFirewall } from "./linux-firewall.ts";
export type { LinuxFirewallOptions } from "./linux-firewall.ts";
export { parseIptablesSave } from "./ipt-save.ts";
export { parseNftList, parseNftRuleLine } from "./nft-list.ts";
export { hasIptablesTools, supportsNftables } from "./support.ts";
export type { FirewallTools } from "./support.ts";
export type { ToolExec, ToolResult } from "./exec.ts";
