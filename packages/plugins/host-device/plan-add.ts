/**
 * host-device in `cni plan`: what its ADD would do, from a read of the host's links (and
 * of sysfs for `kernelpath`, `pciBusID` or `deviceID`: the machine's unless a test gives
 * a tree) and IPAM's answer peeked (not reserved): the device moved in under CNI_IFNAME,
 * its host name as alias, then IPAM's addresses and routes on it. In DPDK mode nothing
 * moves, and no address is set. Applies nothing.
 */
import type { Kernel } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { requireNetns } from "../shared/attach.ts";
import { addressSteps, familyGateways, ipsFor, routeSteps } from "../shared/configure-iface.ts";
import type { PlanStep } from "../shared/steps.ts";
import { hasIpv6, ifKey, readHostSysctls } from "../shared/sysctl.ts";
import { parseHostDeviceConfig } from "./config.ts";
import { findHostDevice } from "./find.ts";
import { moveInSteps } from "./plan.ts";
import { resultWithIpam } from "./result.ts";
import { realSysfs, type Sysfs } from "./sysfs.ts";

/** The steps of a host-device ADD and the result it would return. */
export async function planAdd(
  ports: { kernel: Kernel; sysfs?: Sysfs },
  a: CmdArgs,
  ipam: (type: string) => Promise<Result100 | undefined>,
): Promise<{ steps: PlanStep[]; firewall: []; result: Result100 }> {
  const sys = ports.sysfs ?? (await realSysfs());
  const conf = parseHostDeviceConfig(a.config, sys);
  const k = ports.kernel;
  await requireNetns(k, a.netns);
  const steps: PlanStep[] = [];
  const result: Result100 = { cniVersion: "1.1.0", interfaces: [{ name: a.ifName, sandbox: a.netns }] };
  if (!conf.dpdkMode) {
    const dev = await findHostDevice(k, conf, sys);
    steps.push(...moveInSteps(dev, a.netns, a.ifName));
    // Moving keeps the MAC (index.ts reads it back from the moved link).
    result.interfaces![0]!.mac = dev.mac;
  }
  const r = conf.ipamType === "" ? undefined : await ipam(conf.ipamType);
  if (r === undefined) return { steps, firewall: [], result };
  const out = resultWithIpam(r, result.interfaces, conf.dns);
  if (!conf.dpdkMode) {
    const ipv6 = hasIpv6(await readHostSysctls(k));
    const loDisableIpv6 = ipv6 ? await k.sysctl(a.netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
    const target = { netns: a.netns, ifName: a.ifName, ipv6, loDisableIpv6 };
    const ips = ipsFor(out, a.ifName);
    steps.push(...addressSteps(target, ips), ...routeSteps(target, out.routes ?? [], familyGateways(ips)));
  }
  return { steps, firewall: [], result: out };
}
