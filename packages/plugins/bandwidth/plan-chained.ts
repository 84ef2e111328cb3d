/**
 * bandwidth in `cni plan`: its ADD's ops on the interface plugin's planned result, without
 * a kernel to read (the host veth does not exist yet).
 */
import { HOST, type KernelOp } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { isZero, parseBandwidthConfig } from "./config.ts";
import { ifbName, planBandwidthAdd } from "./plan.ts";

/**
 * What ADD would do after the interface plugin's planned ops (`cni plan`): the host end is
 * the planned veth whose other end is the container's interface, with that veth's MTU.
 * Applies nothing; reads nothing.
 */
export async function planChained(
  a: CmdArgs,
  prev: Result100,
  planned: readonly KernelOp[],
): Promise<{ firewall: []; notes: string[]; ops: KernelOp[] }> {
  const conf = parseBandwidthConfig({ ...a.config, prevResult: undefined });
  const bw = conf.bandwidth;
  if (bw === undefined || isZero(bw)) return { firewall: [], notes: [], ops: [] };
  let host: { name: string; mtu: number } | undefined;
  for (const op of planned) {
    if (op.op !== "veth.add") continue;
    if (op.ns === a.netns && op.name === a.ifName && op.peer.ns === HOST)
      host = { name: op.peer.name, mtu: op.peer.mtu ?? op.mtu ?? 1500 };
    if (op.peer.ns === a.netns && op.peer.name === a.ifName && op.ns === HOST)
      host = { name: op.name, mtu: op.mtu ?? op.peer.mtu ?? 1500 };
  }
  if (host === undefined || !(prev.interfaces ?? []).some((i) => (i.sandbox ?? "") === "" && i.name === host.name)) {
    return {
      firewall: [],
      notes: ["bandwidth: not planned (no planned veth peer of the container interface in the host namespace)"],
      ops: [],
    };
  }
  const ops = planBandwidthAdd(bw, { hostIf: host.name, hostMtu: host.mtu, ifb: ifbName(conf.name, a.containerID) });
  return { firewall: [], notes: [], ops };
}
