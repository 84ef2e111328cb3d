/**
 * The production wiring of {@link PortmapPorts}: the netlink kernel driver (or `ip` with
 * TSCNI_KERNEL=iproute2), the Linux firewall (loaded on first use), conntrack over ctnetlink. Only the binary's
 * portmap entry imports this file.
 */
import { createLinuxKernel } from "@tscni/kernel/linux";
import { IPPROTO, createNetlinkKernel, deleteConntrackByDstPort } from "@tscni/kernel/netlink";
import { lazyLinuxFirewall } from "../shared/lazy-firewall.ts";
import type { PortmapPorts } from "./ports.ts";

/** The real ports for one portmap invocation with environment `env` and stderr `stderr`. */
export async function realPortmapPorts(
  env: Readonly<Record<string, string | undefined>>,
  stderr: (s: string) => void,
): Promise<PortmapPorts> {
  return {
    kernel: env.TSCNI_KERNEL === "iproute2" ? createLinuxKernel() : createNetlinkKernel(),
    // Loaded on first use: a portmap call without mappings touches no table (8.5 ADD step 2).
    firewall: lazyLinuxFirewall(),
    conntrack: {
      deleteByDstPort: async (family, protocol, port) =>
        void (await deleteConntrackByDstPort(family, IPPROTO[protocol], port)),
    },
    warn: (msg) => stderr(`${msg}\n`),
  };
}
