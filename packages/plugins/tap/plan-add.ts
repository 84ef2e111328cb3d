/**
 * tap in `cni plan`: what its ADD would do, from a read of the container namespace and
 * IPAM's answer peeked (not reserved). The tap's MAC is the configured one, else unknown
 * ("" in the result) until the kernel makes the device. Applies nothing.
 */
import type { Kernel } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { requireNetns } from "../shared/attach.ts";
import { addressSteps, familyGateways, ipsFor, routeSteps } from "../shared/configure-iface.ts";
import { linksNamed } from "../shared/links.ts";
import type { PlanStep } from "../shared/steps.ts";
import { hasIpv6, ifKey, readHostSysctls, sysctlSet } from "../shared/sysctl.ts";
import { parseTapConfig } from "./config.ts";
import { tapSteps } from "./plan.ts";

/** The steps of a tap ADD and the result it would return (IPAM's addresses on the tap). */
export async function planAdd(
  ports: { kernel: Kernel },
  a: CmdArgs,
  ipam: (type: string) => Promise<Result100 | undefined>,
): Promise<{ steps: PlanStep[]; firewall: []; result: Result100 }> {
  const conf = parseTapConfig(a.config, a.args);
  const k = ports.kernel;
  await requireNetns(k, a.netns);
  const names = conf.bridge === "" ? [a.ifName] : [a.ifName, conf.bridge];
  const steps = tapSteps(conf, a.netns, a.ifName, { containerLinks: await linksNamed(k, a.netns, names) });
  const result: Result100 = {
    cniVersion: "1.1.0",
    interfaces: [{ name: a.ifName, mac: conf.mac, sandbox: a.netns }],
  };
  const r = conf.ipamType === "" ? undefined : await ipam(conf.ipamType);
  if (r !== undefined) {
    if ((r.ips ?? []).length === 0) throw new Error("IPAM plugin returned missing IP config");
    result.ips = (r.ips ?? []).map((ip) => ({ ...ip, interface: 0 }));
    if (r.routes !== undefined && r.routes.length > 0) result.routes = r.routes;
    const ipv6 = hasIpv6(await readHostSysctls(k));
    const loDisableIpv6 = ipv6 ? await k.sysctl(a.netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
    const target = { netns: a.netns, ifName: a.ifName, ipv6, loDisableIpv6 };
    const ips = ipsFor(result, a.ifName);
    steps.push(
      { op: sysctlSet(a.netns, ifKey("ipv4", a.ifName, "arp_notify"), "1") },
      ...addressSteps(target, ips),
      ...routeSteps(target, result.routes ?? [], familyGateways(ips)),
    );
  }
  if (conf.dns !== undefined) result.dns = conf.dns;
  return { steps, firewall: [], result };
}
