/**
 * The vlan plugin (issue 13): a VLAN sub-interface of the
 * master, born in the container under a temporary name and renamed to CNI_IFNAME, then
 * IPAM (always: an untyped one fails as the reference's) and ConfigureIface. A failed ADD
 * removes the link and releases the address (ADD-6; the reference leaks the link there);
 * DEL releases IPAM first and deletes only a vlan (DEL-2, DEL-3).
 */
import type { CmdArgs, PluginDefinition, PluginHandlers, PluginIO } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { requireNetns } from "../shared/attach.ts";
import { prevResultOf } from "../shared/lifecycle.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { sublinkDefinition, sublinkHandlers, sublinkMain } from "../shared/sublink-handlers.ts";
import { addSublink, containerIface, deleteOwnSublink } from "../shared/sublink.ts";
import { lookupMaster, resolveMaster } from "../shared/sublink-master.ts";
import { randomVethName } from "../shared/veth.ts";
import { checkVlan } from "./check.ts";
import { parseVlanConfig } from "./config.ts";
import { vlanCreateOp } from "./plan.ts";

async function add(ports: PluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseVlanConfig(a.config);
  await resolveMaster(ports.kernel, conf, a.netns, true);
  await requireNetns(ports.kernel, a.netns);
  await lookupMaster(ports.kernel, conf.master, a.netns, conf.linkInContainer);
  const create = vlanCreateOp(conf, a.netns, randomVethName(ports.random));
  const ipam = ports.ipam(conf.ipamType, a);
  const addresses = async () => {
    try {
      return { result: await ipam.add(), release: () => ipam.del() };
    } catch (err) {
      throw new Error(`failed to execute IPAM delegate: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return addSublink(ports, a, { kind: "vlan", create, addresses, notify: false, dns: conf.dns });
}

async function check(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseVlanConfig(a.config);
  await requireNetns(ports.kernel, a.netns);
  // IPAM CHECK even untyped, as the reference's.
  await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "vlan: Required prevResult missing");
  const cont = containerIface(prev, a.ifName, a.netns);
  if (cont.sandbox !== a.netns)
    throw new Error(`Sandbox in prevResult ${cont.sandbox} doesn't match configured netns: ${a.netns}`);
  await lookupMaster(ports.kernel, conf.master, a.netns, conf.linkInContainer);
  const [link, addrs, routes] = await Promise.all([
    ports.kernel.link(a.netns, a.ifName),
    ports.kernel.addresses(a.netns),
    ports.kernel.routes(a.netns),
  ]);
  const problem = checkVlan(conf.vlanId, conf.mtu, a.ifName, a.netns, prev, { link, addrs, routes });
  if (problem !== undefined) throw new Error(problem);
}

async function del(ports: PluginPorts, a: CmdArgs): Promise<void> {
  // [DIFF] the reference's DEL also reads the master's MTU and fails when the master is
  // gone; deleting needs no master, so ours makes the static checks only (DEL-2).
  const conf = parseVlanConfig(a.config);
  await ports.ipam(conf.ipamType, a).del();
  await deleteOwnSublink(ports.kernel, a, "vlan", ports.warn);
}

/** The vlan handlers over the given ports. */
export function vlanHandlers(ports: PluginPorts): PluginHandlers {
  return sublinkHandlers(ports, {
    add,
    check,
    del,
    ipamOf: (a) => parseVlanConfig(a.config).ipamType,
    statusUntyped: true,
  });
}

/** The vlan plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function vlanDefinition(ports: PluginPorts): PluginDefinition {
  return sublinkDefinition("vlan", vlanHandlers(ports));
}

/** The binary's entry for `vlan`: the real kernel and IPAM. */
export function main(io: PluginIO): Promise<number> {
  return sublinkMain(io, vlanDefinition);
}
