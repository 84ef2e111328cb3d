/**
 * The ipvlan plugin (issue 13): an ipvlan on the master,
 * born in the container under a temporary name and renamed to CNI_IFNAME, then IPAM and
 * ConfigureIface. Chained without IPAM it applies the previous result's IPs instead
 * (the reference's chained mode). A failed ADD removes the link and releases what IPAM
 * reserved (ADD-6); DEL releases IPAM first and deletes only an ipvlan (DEL-2, DEL-3).
 */
import type { CmdArgs, PluginDefinition, PluginHandlers, PluginIO } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { requireNetns } from "../shared/attach.ts";
import { prevResultOf } from "../shared/lifecycle.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { sublinkDefinition, sublinkHandlers, sublinkMain } from "../shared/sublink-handlers.ts";
import { addSublink, containerIface, deleteOwnSublink, type Addressing } from "../shared/sublink.ts";
import { lookupMaster } from "../shared/sublink-master.ts";
import { randomVethName } from "../shared/veth.ts";
import { checkIpvlan } from "./check.ts";
import { chainedPrev, ipvlanMaster, ipvlanMode, parseIpvlanConfig } from "./config.ts";
import { ipvlanCreateOp } from "./plan.ts";

async function add(ports: PluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseIpvlanConfig(a.config);
  const prev = chainedPrev(a.config);
  const master = await ipvlanMaster(ports.kernel, conf, prev, a.netns);
  await requireNetns(ports.kernel, a.netns);
  ipvlanMode(conf.mode);
  await lookupMaster(ports.kernel, master, a.netns, conf.linkInContainer);
  const create = ipvlanCreateOp(conf, master, a.netns, randomVethName(ports.random));
  // Chained without IPAM, the previous result's IPs are applied; else IPAM runs (even untyped, as the reference).
  const chained = conf.ipamType === "" && prev !== undefined && (prev.ips ?? []).length > 0 ? prev : undefined;
  const addresses = async (): Promise<Addressing> => {
    if (chained !== undefined) return { result: chained };
    const ipam = ports.ipam(conf.ipamType, a);
    return { result: await ipam.add(), release: () => ipam.del() };
  };
  return addSublink(ports, a, { kind: "ipvlan", create, addresses, notify: true, dns: conf.dns });
}

async function check(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseIpvlanConfig(a.config);
  // [DIFF] the reference's CHECK skips the master's defaults and so fails right after an
  // ADD that used them (`failed to lookup master ""`); ours takes the default route's
  // interface (CHK-4). Not the previous result's: in CHECK that is ipvlan's own result.
  const master = await ipvlanMaster(ports.kernel, conf, undefined, a.netns);
  await requireNetns(ports.kernel, a.netns);
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "Required prevResult missing");
  const cont = containerIface(prev, a.ifName, a.netns);
  if (cont.sandbox !== a.netns)
    throw new Error(`Sandbox in prevResult ${cont.sandbox} doesn't match configured netns: ${a.netns}`);
  await lookupMaster(ports.kernel, master, a.netns, conf.linkInContainer);
  const [link, addrs, routes] = await Promise.all([
    ports.kernel.link(a.netns, a.ifName),
    ports.kernel.addresses(a.netns),
    ports.kernel.routes(a.netns),
  ]);
  const problem = checkIpvlan(conf.mode, a.ifName, a.netns, prev, { link, addrs, routes });
  if (problem !== undefined) throw new Error(problem);
}

async function del(ports: PluginPorts, a: CmdArgs): Promise<void> {
  // [DIFF] the reference's DEL looks up the default route (and fails without one) though it
  // needs no master to delete; ours parses the config only (DEL-2).
  const conf = parseIpvlanConfig(a.config);
  // Chained, the IPAM block can be empty (the reference's comment): then no IPAM DEL.
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).del();
  await deleteOwnSublink(ports.kernel, a, "ipvlan", ports.warn);
}

/** The ipvlan handlers over the given ports. */
export function ipvlanHandlers(ports: PluginPorts): PluginHandlers {
  return sublinkHandlers(ports, {
    add,
    check,
    del,
    ipamOf: (a) => parseIpvlanConfig(a.config).ipamType,
    statusUntyped: false,
  });
}

/** The ipvlan plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function ipvlanDefinition(ports: PluginPorts): PluginDefinition {
  return sublinkDefinition("ipvlan", ipvlanHandlers(ports));
}

/** The binary's entry for `ipvlan`: the real kernel and IPAM. */
export function main(io: PluginIO): Promise<number> {
  return sublinkMain(io, ipvlanDefinition);
}
