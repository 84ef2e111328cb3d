/**
 * The effects portmap runs on: the Kernel port (a route read and the route_localnet
 * sysctl), the Firewall port, conntrack deletion and a warning sink. Tests pass a fake
 * kernel, the fake firewall and a recording conntrack; the binary wires the real ones.
 */
import type { Firewall } from "@tscni/firewall";
import type { Kernel } from "@tscni/kernel";

/** Deletes conntrack entries of one family by protocol and destination port. */
export interface Conntrack {
  deleteByDstPort(family: 4 | 6, protocol: "udp", port: number): Promise<void>;
}

/** What portmap's handlers need from the outside world. */
export interface PortmapPorts {
  kernel: Kernel;
  firewall: Firewall;
  conntrack: Conntrack;
  /** Diagnostics that do not fail the command (stderr in the binary). */
  warn: (msg: string) => void;
}
