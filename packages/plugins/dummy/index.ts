/**
 * The dummy plugin (upstream main's `plugins/main/dummy`; issue 13): a dummy link made
 * inside the container as CNI_IFNAME, then IPAM and ConfigureIface. The result keeps
 * IPAM's DNS (the reference does not override it). A failed ADD removes the link and
 * releases the address (ADD-6); DEL releases IPAM first and deletes only a dummy (DEL-2,
 * DEL-3).
 */
import type { CmdArgs, PluginDefinition, PluginHandlers, PluginIO } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { requireNetns } from "../shared/attach.ts";
import { prevResultOf } from "../shared/lifecycle.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { sublinkDefinition, sublinkHandlers, sublinkMain } from "../shared/sublink-handlers.ts";
import { addSublink, deleteOwnSublink } from "../shared/sublink.ts";
import { checkDummy } from "./check.ts";
import { parseDummyConfig, requireIpam } from "./config.ts";

async function add(ports: PluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseDummyConfig(a.config);
  requireIpam(conf);
  await requireNetns(ports.kernel, a.netns);
  const ipam = ports.ipam(conf.ipamType, a);
  const result = await addSublink(ports, a, {
    kind: "dummy",
    create: { op: "dummy.add", ns: a.netns, name: a.ifName },
    addresses: async () => ({ result: await ipam.add(), release: () => ipam.del() }),
    notify: false,
    dns: undefined,
  });
  return result;
}

async function check(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseDummyConfig(a.config);
  requireIpam(conf);
  await requireNetns(ports.kernel, a.netns);
  await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "dummy: Required prevResult missing");
  const [link, addrs, routes] = await Promise.all([
    ports.kernel.link(a.netns, a.ifName),
    ports.kernel.addresses(a.netns),
    ports.kernel.routes(a.netns),
  ]);
  const problem = checkDummy(a.ifName, a.netns, prev, { link, addrs, routes });
  if (problem !== undefined) throw new Error(problem);
}

async function del(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseDummyConfig(a.config);
  await ports.ipam(conf.ipamType, a).del();
  await deleteOwnSublink(ports.kernel, a, "dummy", ports.warn);
}

/** The dummy handlers over the given ports. */
export function dummyHandlers(ports: PluginPorts): PluginHandlers {
  return sublinkHandlers(ports, {
    add,
    check,
    del,
    ipamOf: (a) => parseDummyConfig(a.config).ipamType,
    statusUntyped: true,
  });
}

/** The dummy plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function dummyDefinition(ports: PluginPorts): PluginDefinition {
  return sublinkDefinition("dummy", dummyHandlers(ports));
}

/** The binary's entry for `dummy`: the real kernel and IPAM. */
export function main(io: PluginIO): Promise<number> {
  return sublinkMain(io, dummyDefinition);
}
