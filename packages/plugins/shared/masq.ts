/**
 * ipMasq for bridge and ptp (SPEC H-3, §8.1 ADD step 9 and DEL step 4, §8.2 ADD step 7
 * and DEL step 4): the configured backend checked before anything is touched, setup
 * after the kernel steps with an undo for rollback, and teardown on both backends with
 * the addresses the container link had before DEL deleted it.
 */
import {
  defaultBackend,
  isMasqBackend,
  planMasqSetup,
  setupMasq,
  teardownMasq,
  undoMasq,
  unknownMasqBackend,
  type Firewall,
  type FirewallTx,
  type MasqAttachment,
  type MasqBackend,
} from "@tscni/firewall";
import type { Kernel } from "@tscni/kernel";
import { parseCIDR, type IP, type IPNet } from "@tscni/spec/ipnet";
import { invalidConfig } from "./netconf.ts";
import type { PluginPorts } from "./ports.ts";

/** The masquerading part of a bridge or ptp config. */
export interface MasqConfig {
  name: string;
  ipMasq: boolean;
  /** `ipMasqBackend` as given; undefined (or JSON null) means auto. */
  ipMasqBackend: string | undefined;
}

/**
 * The configured backend, undefined for auto. An unknown value is an invalid config
 * (code 7, SPEC §4.2) with the reference's message, which the reference returns as a
 * plain error (code 999) only after the veth exists; we refuse it before IPAM runs.
 */
export function masqBackendOf(conf: MasqConfig): MasqBackend | undefined {
  const b = conf.ipMasqBackend;
  if (b === undefined) return undefined;
  if (!isMasqBackend(b)) throw invalidConfig(unknownMasqBackend(b));
  return b;
}

/** Go's `IP.IsGlobalUnicast`: not unspecified, loopback, multicast, link-local or the IPv4 broadcast. */
export function isGlobalUnicast(ip: IP): boolean {
  if (ip.family === 4) {
    const v = ip.value;
    return v !== 0n && v >> 24n !== 127n && v >> 28n !== 0xen && v >> 16n !== 0xa9fen && v !== 0xffffffffn;
  }
  const v = ip.value;
  return v !== 0n && v !== 1n && v >> 120n !== 0xffn && v >> 118n !== 0x3fan;
}

/** The result's addresses as networks (the reference's `ipc.Address`). */
export function masqNets(cidrs: readonly string[]): IPNet[] {
  return cidrs.map((c) => parseCIDR(c)).filter((n): n is IPNet => n !== undefined);
}

/**
 * The global unicast addresses of the container link, read before DEL deletes it
 * (the reference's DelLinkByNameAddr); none when the link or the netns is gone.
 */
export async function linkMasqNets(kernel: Kernel, netns: string, ifName: string): Promise<IPNet[]> {
  if (!(await kernel.netnsExists(netns))) return [];
  const addrs = await kernel.addresses(netns, ifName).catch(() => []);
  return masqNets(addrs.map((a) => a.cidr)).filter((n) => isGlobalUnicast(n.ip));
}

/**
 * Masquerades the result's addresses when `ipMasq` is set; returns the undo a later
 * failure of ADD runs (ADD-6: nothing left), or undefined when there was nothing to do.
 */
export async function addMasq(
  ports: PluginPorts,
  conf: MasqConfig,
  who: Omit<MasqAttachment, "net">,
  cidrs: readonly string[],
): Promise<(() => Promise<void>) | undefined> {
  if (!conf.ipMasq) return undefined;
  const ips = masqNets(cidrs);
  const a = { ...who, net: conf.name };
  const backend = await setupMasq(ports.firewall, masqBackendOf(conf), ips, a, ports.warn);
  return () => undoMasq(ports.firewall, backend, ips, a);
}

/**
 * {@link addMasq} for container `a`'s IPAM addresses, started beside the kernel steps
 * (shared/alongside.ts); `keep` receives the undo once the rules are in, so a rollback
 * undoes them whichever part failed.
 */
export function startMasq(
  ports: PluginPorts,
  conf: MasqConfig,
  a: { ifName: string; containerID: string },
  ips: readonly { address: string }[],
  keep: (undo: (() => Promise<void>) | undefined) => void,
): Promise<void> {
  return addMasq(
    ports,
    conf,
    { ifName: a.ifName, cid: a.containerID },
    ips.map((ip) => ip.address),
  ).then(keep);
}

/** Tears masquerading down on both backends when `ipMasq` is set (H-3); gone rules are fine (DEL-3). */
export async function delMasq(
  ports: PluginPorts,
  conf: MasqConfig,
  who: Omit<MasqAttachment, "net">,
  ips: readonly IPNet[],
): Promise<void> {
  if (!conf.ipMasq) return;
  await teardownMasq(ports.firewall, ips, { ...who, net: conf.name });
}

/**
 * What ADD would change in the firewall, for `cni plan`: the setup transaction on the
 * configured backend, or on the default for what `firewall` supports (iptables when no
 * firewall is given); empty without `ipMasq`.
 */
export async function planMasq(
  firewall: Firewall | undefined,
  conf: MasqConfig,
  who: Omit<MasqAttachment, "net">,
  cidrs: readonly string[],
): Promise<FirewallTx> {
  if (!conf.ipMasq) return [];
  const backend = masqBackendOf(conf) ?? (firewall === undefined ? "iptables" : await defaultBackend(firewall));
  return planMasqSetup(backend, masqNets(cidrs), conf.name, who.ifName, who.cid);
}
