/**
 * The macvlan plugin (issue 13): a macvlan on the master,
 * born in the container under a temporary name and renamed to CNI_IFNAME, then IPAM and
 * ConfigureIface (L3) or just up (L2, no `ipam.type`). A failed ADD removes the link and
 * releases the address (ADD-6); DEL releases IPAM first and deletes only a macvlan
 * (DEL-2, DEL-3); CHECK compares the previous result (CHK-3); STATUS and GC go to IPAM.
 */
import type { CmdArgs, PluginDefinition, PluginHandlers, PluginIO } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { requireNetns } from "../shared/attach.ts";
import { prevResultOf } from "../shared/lifecycle.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { sublinkDefinition, sublinkHandlers, sublinkMain } from "../shared/sublink-handlers.ts";
import { addSublink, deleteOwnSublink } from "../shared/sublink.ts";
import { lookupMaster, resolveMaster } from "../shared/sublink-master.ts";
import { randomVethName } from "../shared/veth.ts";
import { checkMacvlan, macvlanSandboxProblem } from "./check.ts";
import { macvlanMode, parseMacvlanConfig } from "./config.ts";
import { macvlanCreateOp } from "./plan.ts";

async function add(ports: PluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseMacvlanConfig(a.config, a.args);
  const master = await resolveMaster(ports.kernel, conf, a.netns, true);
  await requireNetns(ports.kernel, a.netns);
  macvlanMode(conf.mode);
  await lookupMaster(ports.kernel, master, a.netns, conf.linkInContainer);
  // A temporary name: the link is made from the master's namespace, where CNI_IFNAME may be taken.
  const create = macvlanCreateOp(conf, master, a.netns, randomVethName(ports.random));
  const ipam = conf.ipamType !== "" ? ports.ipam(conf.ipamType, a) : undefined;
  return addSublink(ports, a, {
    kind: "macvlan",
    create,
    addresses: ipam === undefined ? undefined : async () => ({ result: await ipam.add(), release: () => ipam.del() }),
    notify: true,
    dns: conf.dns,
  });
}

async function check(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseMacvlanConfig(a.config, a.args);
  const master = await resolveMaster(ports.kernel, conf, a.netns, true);
  await requireNetns(ports.kernel, a.netns);
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "required prevResult missing");
  const sandbox = macvlanSandboxProblem(prev, a.ifName, a.netns);
  if (sandbox !== undefined) throw new Error(sandbox);
  await lookupMaster(ports.kernel, master, a.netns, conf.linkInContainer);
  const [link, addrs, routes] = await Promise.all([
    ports.kernel.link(a.netns, a.ifName),
    ports.kernel.addresses(a.netns),
    ports.kernel.routes(a.netns),
  ]);
  const problem = checkMacvlan(conf.mode, a.ifName, a.netns, prev, { link, addrs, routes });
  if (problem !== undefined) throw new Error(problem);
}

async function del(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseMacvlanConfig(a.config, a.args);
  // IPAM first, its errors propagate (DEL-6); the master is not needed to delete (DEL-2).
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).del();
  await deleteOwnSublink(ports.kernel, a, "macvlan", ports.warn);
}

/** The macvlan handlers over the given ports. */
export function macvlanHandlers(ports: PluginPorts): PluginHandlers {
  return sublinkHandlers(ports, {
    add,
    check,
    del,
    ipamOf: (a) => parseMacvlanConfig(a.config, a.args).ipamType,
    statusUntyped: false,
  });
}

/** The macvlan plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function macvlanDefinition(ports: PluginPorts): PluginDefinition {
  return sublinkDefinition("macvlan", macvlanHandlers(ports));
}

/** The binary's entry for `macvlan`: the real kernel and IPAM. */
export function main(io: PluginIO): Promise<number> {
  return sublinkMain(io, macvlanDefinition);
}
