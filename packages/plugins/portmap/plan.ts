/**
 * portmap's whole ADD as one firewall transaction over both families, whichever backend
 * the config picked (§8.5, issue 9 item 5: one transaction per ADD), and the teardown
 * that undoes it. Pure.
 */
import type { FirewallOp } from "@tscni/firewall";
import type { IPNet } from "@tscni/spec/ipnet";
import type { PortmapConfig } from "./config.ts";
import { planIptablesAdd } from "./plan-iptables.ts";
import { planNftAdd } from "./plan-nft.ts";

/** The container's addresses portmap forwards to: IPv4 first, then IPv6 (§8.5 ADD 3). */
export function containerNets(conf: PortmapConfig): IPNet[] {
  return [conf.containerV4, conf.containerV6].filter((n): n is IPNet => n !== undefined);
}

/** Every rule ADD installs, for each family with a container address, in one transaction. */
export function planPortmapAdd(conf: PortmapConfig, containerID: string): FirewallOp[] {
  const plan = conf.backend === "nftables" ? planNftAdd : planIptablesAdd;
  return containerNets(conf).flatMap((net) => plan(conf, containerID, net));
}
