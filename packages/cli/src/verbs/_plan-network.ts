/**
 * `cni plan <network> <netns>`: what an ADD of the network would do to the kernel,
 * computed by the plugins' own planners on a read of the kernel, with the next IPAM
 * address peeked (not reserved), and the firewall transactions of its ipMasq and of a
 * chained `firewall` plugin. Nothing is changed: no link, no rule, no reservation, no file.
 */
import { resolve } from "node:path";
import { loadNetwork } from "@tscni/config";
import type { Firewall, FirewallTx } from "@tscni/firewall";
import type { Kernel, KernelOp } from "@tscni/kernel";
import { hostLocalHandlers } from "@tscni/plugins/host-local";
import {
  cryptoBytes,
  lazyLinuxFirewall,
  opsOf,
  toCurrent,
  type PlanStep,
  type RandomBytes,
} from "@tscni/plugins/shared";
import { buildRequest } from "@tscni/runtime";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { DEFAULT_NET_DIR, cnitoolContainerID } from "./_cnitool.ts";
import { PeekStore } from "./_peek-store.ts";

/** A plugin that can say what its ADD would do. */
type Planner = (
  ports: { kernel: Kernel; random: RandomBytes; firewall?: Firewall },
  a: CmdArgs,
  ipam: (type: string) => Promise<Result100 | undefined>,
) => Promise<{ steps: PlanStep[]; firewall: FirewallTx; result: Result100 }>;

/** The plugins `cni plan` can plan, loaded on use. */
const PLANNERS: Readonly<Record<string, () => Promise<Planner>>> = {
  bridge: async () => (await import("@tscni/plugins/bridge")).planAdd,
  ptp: async () => (await import("@tscni/plugins/ptp")).planAdd,
  tap: async () => (await import("@tscni/plugins/tap")).planAdd,
  "host-device": async () => (await import("@tscni/plugins/host-device")).planAdd,
};

/** A chained plugin that can say what its ADD would do with the interface plugin's result. */
type ChainedPlanner = (
  a: CmdArgs,
  prev: Result100,
  ops: readonly KernelOp[],
  ports: { kernel: Kernel },
) => Promise<{ firewall: FirewallTx; notes: string[]; ops?: KernelOp[] }>;

/** The chained plugins `cni plan` can plan, loaded on use. */
const CHAINED_PLANNERS: Readonly<Record<string, () => Promise<ChainedPlanner>>> = {
  // Its third parameter is a D-Bus port, not the planned ops: pass the first two only.
  firewall: async () => {
    const { planChained } = await import("@tscni/plugins/firewall");
    return (a, prev) => planChained(a, prev);
  },
  bandwidth: async () => (await import("@tscni/plugins/bandwidth")).planChained,
  sbr: async () => (await import("@tscni/plugins/sbr")).planChained,
  tuning: async () => (await import("@tscni/plugins/tuning")).planChained,
  vrf: async () => (await import("@tscni/plugins/vrf")).planChained,
};

/** A network's plan: the operations and notes about what was not planned. */
export interface NetworkPlan {
  ops: KernelOp[];
  /** The firewall changes (ipMasq), applied after the kernel operations. */
  firewall: FirewallTx;
  notes: string[];
}

/** Where the plan reads from; the real kernel unless a test passes another. */
export interface NetworkPlanOptions {
  env: Readonly<Record<string, string | undefined>>;
  ifName?: string;
  kernel?: Kernel;
  random?: RandomBytes;
  /** What picks an unset ipMasqBackend (H-3): the real firewall's support, read only. */
  firewall?: Firewall;
}

/** The next host-local addresses for the attachment, from a read-only view of its data dir. */
async function peekIpam(type: string, a: CmdArgs): Promise<Result100 | undefined> {
  if (type === "") return undefined;
  // static keeps no state: its ADD is already a read-only answer.
  if (type === "static")
    return toCurrent(await (await import("@tscni/plugins/static")).definition.handlers.add!({ ...a, command: "ADD" }));
  if (type !== "host-local")
    throw new Error(
      `cannot plan IPAM "${type}": only host-local and static can be planned without reserving an address`,
    );
  return toCurrent(
    await hostLocalHandlers((dataDir, network) => new PeekStore(dataDir, network)).add({ ...a, command: "ADD" }),
  );
}

/** Plans the ADD of `netName` (from NETCONFPATH) into `netns`. */
export async function planNetwork(netName: string, netns: string, opts: NetworkPlanOptions): Promise<NetworkPlan> {
  const list = await loadNetwork(opts.env.NETCONFPATH || DEFAULT_NET_DIR, netName);
  const absNetns = resolve(netns);
  const rt = {
    containerID: cnitoolContainerID(absNetns),
    netns: absNetns,
    ifName: opts.ifName || opts.env.CNI_IFNAME || "eth0",
  };
  const kernel = opts.kernel ?? (await import("@tscni/kernel/linux")).createLinuxKernel();
  const ports = { kernel, random: opts.random ?? cryptoBytes, firewall: opts.firewall ?? lazyLinuxFirewall() };
  const ops: KernelOp[] = [];
  const firewall: FirewallTx[number][] = [];
  const notes: string[] = [];
  const argsFor = (plugin: (typeof list.plugins)[number]): CmdArgs => {
    const req = buildRequest(list.name, list.cniVersion, plugin, undefined, rt);
    return {
      command: "ADD",
      ...rt,
      args: opts.env.CNI_ARGS ?? "",
      path: opts.env.CNI_PATH ?? "",
      stdinData: req.bytes,
      config: { ...req.network, name: list.name, cniVersion: list.cniVersion },
    };
  };
  // The interface plugin's planned result, which chained plugins plan on.
  let prev: Result100 | undefined;
  for (const plugin of list.plugins) {
    const type = plugin.network.type;
    const chained = Object.hasOwn(CHAINED_PLANNERS, type) ? CHAINED_PLANNERS[type] : undefined;
    if (chained !== undefined && prev !== undefined) {
      const planned = await (await chained())(argsFor(plugin), prev, ops, { kernel });
      ops.push(...(planned.ops ?? []));
      firewall.push(...planned.firewall);
      notes.push(...planned.notes);
      continue;
    }
    const load = Object.hasOwn(PLANNERS, type) ? PLANNERS[type] : undefined;
    // Chained plugins see the first one's result; only the first interface plugin is planned.
    if (load === undefined || ops.length > 0) {
      notes.push(
        `${type}: not planned (${load === undefined ? "no planner for this plugin" : "runs after the interface plugin"})`,
      );
      continue;
    }
    const a = argsFor(plugin);
    const planned = await (await load())(ports, a, (ipamType) => peekIpam(ipamType, a));
    ops.push(...opsOf(planned.steps));
    prev = planned.result;
    firewall.push(...planned.firewall);
    notes.unshift(`${type}: ADD of ${rt.ifName} in ${absNetns} (container ID ${rt.containerID})`);
  }
  return { ops, firewall, notes };
}
