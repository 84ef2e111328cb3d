/**
 * The effects bridge and ptp run on, as one object: the Kernel and Firewall ports, the
 * IPAM factory, randomness, time and a warning sink. Tests pass a fake kernel, a fake
 * firewall, a memory IPAM and a seeded random source; the binary wires the real ones (`real-ports.ts`).
 */
import type { Firewall } from "@tscni/firewall";
import type { Kernel } from "@tscni/kernel";
import type { IpamFactory } from "./ipam.ts";
import type { RandomBytes } from "./veth.ts";

/** What a plugin's handlers need from the outside world. */
export interface PluginPorts {
  kernel: Kernel;
  /** netfilter in the plugin's own namespace (ipMasq, H-3). */
  firewall: Firewall;
  ipam: IpamFactory;
  random: RandomBytes;
  sleep: (ms: number) => Promise<void>;
  /** Diagnostics that do not fail the command (stderr in the binary). */
  warn: (msg: string) => void;
}
