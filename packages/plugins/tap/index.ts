/**
 * The tap plugin (issue 13, upstream main's plugins/main/tap; Debian's v1.1.1 has none):
 * a tap device in the container under CNI_IFNAME, with owner, group, queues, MTU, MAC and
 * an optional bridge, then IPAM's addresses on it. A failed ADD deletes the tap and
 * releases IPAM (ADD-6); DEL releases IPAM, then deletes the tap, gone or not (DEL-2, DEL-3).
 * `selinuxContext` is accepted; we do not relabel (the device is made without exec).
 */
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { VERSIONS, type Result100 } from "@tscni/spec";
import { applyWithRollback, rollback } from "../shared/apply.ts";
import { requireNetns } from "../shared/attach.ts";
import { addressSteps, familyGateways, ipsFor, routeSteps } from "../shared/configure-iface.ts";
import { deleteContainerLink, prevResultOf } from "../shared/lifecycle.ts";
import { linksNamed } from "../shared/links.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { undoOf } from "../shared/steps.ts";
import { hasIpv6, ifKey, readHostSysctls, sysctlSet } from "../shared/sysctl.ts";
import { checkTap } from "./check.ts";
import { parseIpamType, parseTapConfig } from "./config.ts";
import { tapSteps } from "./plan.ts";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

async function add(ports: PluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseTapConfig(a.config, a.args);
  await requireNetns(ports.kernel, a.netns);
  const names = conf.bridge === "" ? [a.ifName] : [a.ifName, conf.bridge];
  const steps = tapSteps(conf, a.netns, a.ifName, { containerLinks: await linksNamed(ports.kernel, a.netns, names) });
  await applyWithRollback(ports.kernel, steps, ports.warn);
  const undoTap = async () => {
    for (const f of await rollback(ports.kernel, undoOf(steps))) ports.warn(`rollback: ${f}`);
  };
  const ipam = conf.ipamType === "" ? undefined : ports.ipam(conf.ipamType, a);
  try {
    const tap = await ports.kernel.link(a.netns, a.ifName);
    const result: Result100 = {
      cniVersion: "1.1.0",
      interfaces: [{ name: a.ifName, mac: tap?.mac ?? "", sandbox: a.netns }],
    };
    if (ipam !== undefined) {
      const r = await ipam.add();
      if ((r.ips ?? []).length === 0) throw new Error("IPAM plugin returned missing IP config");
      result.ips = (r.ips ?? []).map((ip) => ({ ...ip, interface: 0 }));
      if (r.routes !== undefined && r.routes.length > 0) result.routes = r.routes;
      // The reference ignores a failure of arp_notify (it sends gratuitous ARPs on changes).
      await ports.kernel.apply([sysctlSet(a.netns, ifKey("ipv4", a.ifName, "arp_notify"), "1")]).catch(() => undefined);
      const sysctls = await readHostSysctls(ports.kernel);
      const ipv6 = hasIpv6(sysctls);
      const loDisableIpv6 = ipv6 ? await ports.kernel.sysctl(a.netns, ifKey("ipv6", "lo", "disable_ipv6")) : undefined;
      const target = { netns: a.netns, ifName: a.ifName, ipv6, loDisableIpv6 };
      const ips = ipsFor(result, a.ifName);
      await applyWithRollback(
        ports.kernel,
        [...addressSteps(target, ips), ...routeSteps(target, result.routes ?? [], familyGateways(ips))],
        ports.warn,
      );
    }
    // The reference sets the result's DNS to the config's.
    if (conf.dns !== undefined) result.dns = conf.dns;
    return result;
  } catch (err) {
    await ipam?.del().catch((e: unknown) => ports.warn(`IPAM DEL after a failed ADD: ${message(e)}`));
    await undoTap();
    throw err;
  }
}

async function check(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseTapConfig(a.config, a.args);
  await requireNetns(ports.kernel, a.netns);
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "Required prevResult missing");
  const [addrs, routes] = await Promise.all([ports.kernel.addresses(a.netns), ports.kernel.routes(a.netns)]);
  const problem = checkTap(a.netns, a.ifName, prev, addrs, routes);
  if (problem !== undefined) throw new Error(problem);
}

async function del(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseTapConfig(a.config, a.args);
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).del();
  if (a.netns === "") return;
  await deleteContainerLink(ports.kernel, a.netns, a.ifName);
}

export { planAdd } from "./plan-add.ts";

/** The tap handlers over the given ports. */
export function tapHandlers(ports: PluginPorts): PluginHandlers {
  return {
    add: (a) => add(ports, a),
    check: (a) => check(ports, a),
    del: (a) => del(ports, a),
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

/** The tap plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function tapDefinition(ports: PluginPorts): PluginDefinition {
  return { name: "tap", about: "CNI tap plugin (tscni)", versions: VERSIONS, handlers: tapHandlers(ports) };
}

/** The binary's entry for `tap`: the real kernel and IPAM. */
export async function main(io: PluginIO): Promise<number> {
  const { realPorts } = await import("../shared/real-ports.ts");
  const { serialisedDefinition } = await import("../shared/serialise.ts");
  return pluginMain(serialisedDefinition(tapDefinition(realPorts(io.env, io.stderr))), io);
}
