/**
 * portmap's CHECK (§8.5): for each family with a container address, the iptables chain,
 * rules and entry rules as planned, or enough nftables rules commented with the
 * container ID. Throws the reference's message for the first problem.
 */
import type { PortmapConfig } from "./config.ts";
import { checkIptables } from "./plan-iptables.ts";
import { NFT_TABLE, checkNft } from "./plan-nft.ts";
import { containerNets } from "./plan.ts";
import type { PortmapPorts } from "./ports.ts";

/** Checks the container's rules; throws on the first one missing. */
export async function checkPortmap(ports: PortmapPorts, conf: PortmapConfig, containerID: string): Promise<void> {
  for (const net of containerNets(conf)) {
    const family = net.ip.family;
    if (conf.backend === "nftables") {
      const problem = checkNft(
        conf,
        containerID,
        family,
        await ports.firewall.nftTable(family === 6 ? "ip6" : "ip", NFT_TABLE),
      );
      if (problem !== undefined) throw new Error(problem);
      continue;
    }
    const chains = await ports.firewall.iptables(family, "nat").catch(() => undefined);
    if (chains === undefined) throw new Error("neither iptables nor ip6tables is usable");
    const problem = checkIptables(conf, containerID, net, chains);
    if (problem !== undefined) throw new Error(`could not check ipv${family} dnat: ${problem}`);
  }
}
