export { FakeFirewall } from "./fake-firewall.ts";
export type { FakeFirewallOptions, FirewallDump } from "./fake-firewall.ts";
