/**
 * Sysctl keys the plugins write. Keys are dotted; when an interface name holds a dot
 * (`cni0.100`), the key uses `/` separators instead, as sysctl(8) and the reference's
 * `net/ipv6/conf/%s/...` templates do, so the name stays one segment.
 */
import { HOST, type Kernel, type Netns, type SysctlSet } from "@tscni/kernel";

/** The key of a per-interface setting: `net.<ipv4|ipv6>.conf.<ifname>.<leaf>`. */
export function ifKey(proto: "ipv4" | "ipv6", ifName: string, leaf: string): string {
  const parts = ["net", proto, "conf", ifName, leaf];
  return ifName.includes(".") ? parts.join("/") : parts.join(".");
}

/** IPv4 forwarding (H-4). */
export const IPV4_FORWARD = "net.ipv4.ip_forward";
/** IPv6 forwarding (H-4). */
export const IPV6_FORWARD = "net.ipv6.conf.all.forwarding";

/** A sysctl write. */
export function sysctlSet(ns: Netns, key: string, value: string): SysctlSet {
  return { op: "sysctl.set", ns, key, value };
}

/** What the plans need to know about the host's sysctls before changing them. */
export interface HostSysctls {
  /** `net.ipv4.ip_forward`. */
  ipv4Forward: string | undefined;
  /** `net.ipv6.conf.all.forwarding`; undefined when the kernel has no IPv6 (booted with ipv6.disable=1). */
  ipv6Forward: string | undefined;
}

/** Reads the forwarding settings; IPv6 sysctls are only written when IPv6 exists. */
export async function readHostSysctls(kernel: Kernel): Promise<HostSysctls> {
  const [ipv4Forward, ipv6Forward] = await Promise.all([
    kernel.sysctl(HOST, IPV4_FORWARD),
    kernel.sysctl(HOST, IPV6_FORWARD),
  ]);
  return { ipv4Forward, ipv6Forward };
}

/** True when the kernel has IPv6 (its per-interface sysctls exist). */
export function hasIpv6(s: HostSysctls): boolean {
  return s.ipv6Forward !== undefined;
}

/** The writes that switch forwarding on for `families`, skipped where it is already on (H-4). */
export function forwardingOps(s: HostSysctls, families: ReadonlySet<4 | 6>): SysctlSet[] {
  const out: SysctlSet[] = [];
  if (families.has(4) && s.ipv4Forward !== "1") out.push(sysctlSet(HOST, IPV4_FORWARD, "1"));
  if (families.has(6) && hasIpv6(s) && s.ipv6Forward !== "1") out.push(sysctlSet(HOST, IPV6_FORWARD, "1"));
  return out;
}
