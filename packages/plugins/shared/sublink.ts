/**
 * ADD and DEL of the interface plugins (macvlan, ipvlan, vlan, dummy), over the Kernel
 * port: the reference's order (the link first, then IPAM, then ConfigureIface) with
 * rollback at every step, so a failed ADD leaves no temporary or renamed link and no IP
 * reservation (ADD-6; the reference leaks the link of ipvlan and vlan when IPAM or the
 * rename fails). DEL releases IPAM first, tolerates a gone namespace or link (DEL-2,
 * DEL-3), and deletes CNI_IFNAME only when it is the kind of link this plugin makes and,
 * when the cached result names its MAC, that MAC (issue 16 item 5: never a foreign one).
 */
import type { Kernel, KernelOp } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import { parsePrevResult } from "@tscni/skel";
import type { DNS, Result100 } from "@tscni/spec";
import { applyWithRollback, rollback } from "./apply.ts";
import { goErrno } from "./go-errno.ts";
import { deleteContainerLink, settleAddresses } from "./lifecycle.ts";
import type { PluginPorts } from "./ports.ts";
import { configureSteps, createSteps, sublinkResult, upSteps } from "./sublink-plan.ts";
import { hasIpv6, ifKey, readHostSysctls } from "./sysctl.ts";

/** The addresses of an L3 ADD: IPAM's answer (with its release) or a chained prevResult's. */
export interface Addressing {
  result: Result100;
  /** Releases what IPAM reserved; absent when nothing was reserved (a chained result). */
  release?: () => Promise<void>;
}

/** What one interface plugin's ADD needs. */
export interface SublinkAdd {
  /** `macvlan`, `ipvlan`, `vlan` or `dummy`: the word in the reference's messages. */
  kind: string;
  /** The create op, naming the link as it is born in the container (a temporary name, or CNI_IFNAME). */
  create: KernelOp & { name: string };
  /** L3: runs after the link exists, as the reference's IPAM call does. Undefined: L2 (the link only comes up). */
  addresses: (() => Promise<Addressing>) | undefined;
  /** Set `arp_notify`/`ndisc_notify` before configuring (macvlan, ipvlan). */
  notify: boolean;
  /** The config's DNS, which replaces IPAM's in the result (the reference's `result.DNS = n.DNS`). */
  dns: DNS | undefined;
}

/** Creates the child, renames it to CNI_IFNAME, then configures it; rolls everything back on failure. */
export async function addSublink(ports: PluginPorts, a: CmdArgs, spec: SublinkAdd): Promise<Result100> {
  const [create, rename] = createSteps(spec.create, a.netns, a.ifName);
  try {
    await ports.kernel.apply([create!.op]);
  } catch (err) {
    throw new Error(`failed to create ${spec.kind}: ${goErrno(err)}`);
  }
  const undoLink = async (name: string) => {
    for (const f of await rollback(ports.kernel, [{ op: "link.del", ns: a.netns, name }])) ports.warn(`rollback: ${f}`);
  };
  if (rename !== undefined) {
    try {
      await ports.kernel.apply([rename.op]);
    } catch (err) {
      await undoLink(spec.create.name);
      throw new Error(`failed to rename ${spec.kind} to ${JSON.stringify(a.ifName)}: ${goErrno(err)}`);
    }
  }
  let release: (() => Promise<void>) | undefined;
  try {
    const link = await ports.kernel.link(a.netns, a.ifName);
    if (link === undefined)
      throw new Error(`failed to refetch ${spec.kind} ${JSON.stringify(a.ifName)}: Link not found`);
    const iface = { name: a.ifName, mac: link.mac, sandbox: a.netns };
    if (spec.addresses === undefined) {
      await applyWithRollback(ports.kernel, upSteps(a.netns, a.ifName), ports.warn);
      return { cniVersion: "1.1.0", interfaces: [iface], ...(spec.dns !== undefined ? { dns: spec.dns } : {}) };
    }
    const addressing = await spec.addresses();
    release = addressing.release;
    const result = sublinkResult(iface, addressing.result, spec.dns);
    const ipv6 = hasIpv6(await readHostSysctls(ports.kernel));
    const loDisableIpv6 = ipv6 ? await ports.kernel.sysctl(a.netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
    const target = { netns: a.netns, ifName: a.ifName, ipv6, loDisableIpv6 };
    await applyWithRollback(ports.kernel, configureSteps({ target, notify: spec.notify }, result), ports.warn);
    // ConfigureIface waits for DAD when there is an IPv6 gateway (H-2).
    if ((result.ips ?? []).some((ip) => ip.gateway?.includes(":") === true))
      await settleAddresses(ports.kernel, a.netns, a.ifName, ports.sleep);
    return result;
  } catch (err) {
    await undoLink(a.ifName);
    await release?.().catch((e: unknown) =>
      ports.warn(`IPAM DEL after a failed ADD: ${e instanceof Error ? e.message : String(e)}`),
    );
    throw err;
  }
}

/** The MAC the cached result (DEL-4) records for CNI_IFNAME in this sandbox, if any. */
function cachedMac(a: CmdArgs): string | undefined {
  try {
    const prev = parsePrevResult(a.config);
    const mac = prev?.interfaces?.find((i) => i.name === a.ifName && i.sandbox === a.netns)?.mac;
    return mac === undefined || mac === "" ? undefined : mac;
  } catch {
    return undefined; // a DEL must not fail on a bad prevResult (DEL-4)
  }
}

/**
 * DEL's link step: deletes CNI_IFNAME when it is a `kind` link (with the cached MAC, when
 * one is cached); a gone namespace or link is fine (DEL-2, DEL-3), a foreign link stays.
 */
export async function deleteOwnSublink(
  kernel: Kernel,
  a: CmdArgs,
  kind: string,
  warn: (msg: string) => void,
): Promise<void> {
  if (a.netns === "" || !(await kernel.netnsExists(a.netns))) return;
  let link;
  try {
    link = await kernel.link(a.netns, a.ifName);
  } catch {
    return; // the namespace went between the two reads
  }
  if (link === undefined) return;
  const mac = cachedMac(a);
  if (link.kind !== kind || (mac !== undefined && mac.toLowerCase() !== link.mac.toLowerCase())) {
    warn(`DEL: left ${a.ifName} in ${a.netns} alone: it is not the ${kind} link this plugin's ADD made`);
    return;
  }
  await deleteContainerLink(kernel, a.netns, a.ifName);
}

/** The container interface a CHECK looks for: named CNI_IFNAME in CNI_NETNS in the previous result (empty when absent). */
export function containerIface(
  prev: Result100,
  ifName: string,
  netns: string,
): { name: string; mac: string; sandbox: string } {
  const found = (prev.interfaces ?? []).find((i) => i.name === ifName && i.sandbox === netns);
  return { name: found?.name ?? "", mac: found?.mac ?? "", sandbox: found?.sandbox ?? "" };
}
