/**
 * The host-device plugin (issue 13, the reference's plugins/main/host-device): moves an
 * existing host link into the container under CNI_IFNAME, its host name kept as its
 * alias, configures IPAM's addresses on it, and on DEL gives it back to the host under
 * its old name. Unlike the reference, a failed ADD (IPAM included) moves the device back
 * (ADD-6), and DEL of a device already gone succeeds (DEL-3).
 */
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { VERSIONS, type Result100 } from "@tscni/spec";
import { applyWithRollback, rollback } from "../shared/apply.ts";
import { requireNetns } from "../shared/attach.ts";
import { addressSteps, familyGateways, ipsFor, routeSteps } from "../shared/configure-iface.ts";
import { prevResultOf } from "../shared/lifecycle.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { undoOf } from "../shared/steps.ts";
import { hasIpv6, ifKey, readHostSysctls } from "../shared/sysctl.ts";
import { checkHostDevice } from "./check.ts";
import { parseHostDeviceConfig, parseIpamType } from "./config.ts";
import { findHostDevice } from "./find.ts";
import { moveInSteps, moveOutSteps } from "./plan.ts";
import { resultWithIpam } from "./result.ts";
import type { Sysfs } from "./sysfs.ts";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

async function add(ports: PluginPorts, sys: Sysfs, a: CmdArgs): Promise<Result100> {
  const conf = parseHostDeviceConfig(a.config, sys);
  await requireNetns(ports.kernel, a.netns);
  const result: Result100 = { cniVersion: "1.1.0", interfaces: [{ name: a.ifName, sandbox: a.netns }] };
  let undoMove: (() => Promise<void>) | undefined;
  if (!conf.dpdkMode) {
    const dev = await findHostDevice(ports.kernel, conf, sys);
    const steps = moveInSteps(dev, a.netns, a.ifName);
    try {
      await applyWithRollback(ports.kernel, steps, ports.warn);
    } catch (err) {
      throw new Error(`failed to move link ${message(err)}`);
    }
    undoMove = async () => {
      for (const f of await rollback(ports.kernel, undoOf(steps))) ports.warn(`rollback: ${f}`);
    };
    const moved = await ports.kernel.link(a.netns, a.ifName);
    result.interfaces![0]!.mac = moved?.mac ?? dev.mac;
  }
  if (conf.ipamType === "") return result;
  const ipam = ports.ipam(conf.ipamType, a);
  try {
    const out = resultWithIpam(await ipam.add(), result.interfaces, conf.dns);
    if (!conf.dpdkMode) {
      const sysctls = await readHostSysctls(ports.kernel);
      const ipv6 = hasIpv6(sysctls);
      const loDisableIpv6 = ipv6 ? await ports.kernel.sysctl(a.netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
      const target = { netns: a.netns, ifName: a.ifName, ipv6, loDisableIpv6 };
      const ips = ipsFor(out, a.ifName);
      await applyWithRollback(
        ports.kernel,
        [...addressSteps(target, ips), ...routeSteps(target, out.routes ?? [], familyGateways(ips))],
        ports.warn,
      );
    }
    return out;
  } catch (err) {
    await ipam.del().catch((e: unknown) => ports.warn(`IPAM DEL after a failed ADD: ${message(e)}`));
    await undoMove?.();
    throw err;
  }
}

async function check(ports: PluginPorts, sys: Sysfs, a: CmdArgs): Promise<void> {
  const conf = parseHostDeviceConfig(a.config, sys);
  await requireNetns(ports.kernel, a.netns);
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "Required prevResult missing");
  if (conf.dpdkMode) return;
  const [containerLinks, containerAddrs, containerRoutes] = await Promise.all([
    ports.kernel.links(a.netns),
    ports.kernel.addresses(a.netns),
    ports.kernel.routes(a.netns),
  ]);
  const problem = checkHostDevice(a.netns, a.ifName, prev, { containerLinks, containerAddrs, containerRoutes });
  if (problem !== undefined) throw new Error(problem);
}

async function del(ports: PluginPorts, sys: Sysfs, a: CmdArgs): Promise<void> {
  const conf = parseHostDeviceConfig(a.config, sys);
  if (a.netns === "") return;
  // [DIFF] a namespace already gone: the reference fails "failed to open netns"; the device
  // went back to the host with it (the kernel returns physical devices to the root
  // namespace), so there is nothing left to do but IPAM (DEL-2).
  const exists = await ports.kernel.netnsExists(a.netns);
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).del();
  if (!exists || conf.dpdkMode) return;
  const cont = await ports.kernel.link(a.netns, a.ifName);
  // [DIFF] the reference fails `failed to find "eth0" in containerNS`; gone is done (DEL-3).
  if (cont === undefined) return;
  try {
    await applyWithRollback(ports.kernel, moveOutSteps(cont, a.netns), ports.warn);
  } catch (err) {
    if (err instanceof Error && err.message.startsWith("failed to find original ifname")) throw err;
    throw new Error(`failed to move "${a.ifName}" to the host: ${message(err)}`);
  }
}

export { planAdd } from "./plan-add.ts";

/** The host-device handlers over the given ports and sysfs tree. */
export function hostDeviceHandlers(ports: PluginPorts, sys: Sysfs): PluginHandlers {
  return {
    add: (a) => add(ports, sys, a),
    check: (a) => check(ports, sys, a),
    del: (a) => del(ports, sys, a),
    // GC is the reference's FIXME; IPAM may have state to collect (GC-4).
    gc: async (a) => {
      const type = parseIpamType(a.config);
      if (type !== "") await ports.ipam(type, a).gc();
    },
    status: async (a) => {
      const type = parseIpamType(a.config);
      if (type !== "") await ports.ipam(type, a).status();
    },
  };
}

/** The host-device plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function hostDeviceDefinition(ports: PluginPorts, sys: Sysfs): PluginDefinition {
  return {
    name: "host-device",
    about: "CNI host-device plugin (tscni)",
    versions: VERSIONS,
    handlers: hostDeviceHandlers(ports, sys),
  };
}

/** The binary's entry for `host-device`: the real kernel, IPAM and /sys. */
export async function main(io: PluginIO): Promise<number> {
  const { realPorts } = await import("../shared/real-ports.ts");
  const { serialisedDefinition } = await import("../shared/serialise.ts");
  const { realSysfs } = await import("./sysfs.ts");
  return pluginMain(serialisedDefinition(hostDeviceDefinition(realPorts(io.env, io.stderr), await realSysfs())), io);
}
