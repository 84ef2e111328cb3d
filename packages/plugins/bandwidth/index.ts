/**
 * The bandwidth plugin (issue 12 item 2; the reference's plugins/meta/bandwidth), chained
 * only: ADD limits the container's ingress with a tbf on the host end of its veth and its
 * egress with an ifb that the host end's ingress traffic is redirected to, and adds the
 * ifb to the result; a failed ADD undoes what it did (ADD-6). DEL removes the ifb and
 * succeeds when it is already gone (DEL-3); CHECK compares the qdiscs. Spec 0.3.0 and
 * later (VersionsStartingFrom("0.3.0")); no GC or STATUS, as the reference.
 */
import { HOST, KernelError, type Kernel, type KernelOp } from "@tscni/kernel";
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginIO } from "@tscni/skel";
import { CniError, type Result100 } from "@tscni/spec";
import { versionsStartingFrom } from "@tscni/spec/version";
import { invalidConfig } from "../shared/netconf.ts";
import { checkTbf } from "./check.ts";
import { isZero, parseBandwidthConfig, type BandwidthConfig } from "./config.ts";
import { hostInterface, netnsOpenError } from "./host-if.ts";
import { ifbName, planBandwidthAdd, planRollback, shapesEgress, shapesIngress } from "./plan.ts";

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * A kernel refusal as vishvananda/netlink reports it: the errno as Go spells it ("file
 * exists", "invalid argument"), not iproute2's line or the kernel's extended ack.
 */
function goErrno(err: unknown): string {
  if (err instanceof KernelError && err.kind === "exists") return "file exists";
  const errno = /RTNETLINK answers: (.+)$/.exec(message(err))?.[1];
  return errno === undefined ? message(err) : errno.charAt(0).toLowerCase() + errno.slice(1);
}

/** The reference's wording of a failed step, by the op that failed (ifb_creator.go). */
function stepError(op: KernelOp | undefined, ifb: string, err: unknown): Error {
  const m = goErrno(err);
  if (op?.op === "ifb.add") return new Error(`adding link: ${m}`);
  if (op?.op === "filter.add") return new Error(`add filter: ${m}`);
  if (op?.op === "qdisc.add" && op.kind === "ingress") return new Error(`create ingress qdisc: ${m}`);
  if (op?.op === "qdisc.add" && op.dev === ifb) return new Error(`create ifb qdisc: create qdisc: ${m}`);
  return new Error(`create qdisc: ${m}`);
}

/** The previous result and the host end of the container's veth, or the reference's errors. */
async function target(kernel: Kernel, conf: BandwidthConfig, a: CmdArgs, chainedMessage: string) {
  if (conf.prevResult === undefined) throw invalidConfig(chainedMessage);
  if (!(await kernel.netnsExists(a.netns))) throw netnsOpenError(a.netns);
  return { prev: conf.prevResult, host: await hostInterface(kernel, conf.prevResult, a.netns, a.ifName) };
}

async function add(kernel: Kernel, a: CmdArgs): Promise<Result100> {
  const conf = parseBandwidthConfig(a.config);
  const bw = conf.bandwidth;
  if (bw === undefined || isZero(bw)) {
    if (conf.prevResult === undefined) throw invalidConfig("must be called as chained plugin");
    return conf.prevResult;
  }
  // v1.1.1 (Debian) differs: code 999 for a plain error; SPEC §4.2 gives code 7 (invalid network config)
  const { prev, host } = await target(kernel, conf, a, "must be called as chained plugin");
  const ifb = ifbName(conf.name, a.containerID);
  const ops = planBandwidthAdd(bw, { hostIf: host.name, hostMtu: host.mtu, ifb });
  try {
    await kernel.apply(ops);
  } catch (err) {
    const failed = err instanceof KernelError && err.opIndex !== undefined ? err.opIndex : 0;
    // A failed ADD leaves nothing of its own behind (ADD-6): the ops before the failed one are
    // undone; the failed one changed nothing (an ifb or qdisc that was there already is not ours).
    await kernel.apply(planRollback(ops, failed)).catch(() => undefined);
    throw stepError(ops[failed], ifb, err);
  }
  const result: Result100 = { ...prev, interfaces: [...(prev.interfaces ?? [])] };
  if (shapesEgress(bw)) {
    const link = await kernel.link(HOST, ifb);
    result.interfaces?.push({ name: ifb, mac: link?.mac ?? "" });
  }
  return result;
}

async function del(kernel: Kernel, a: CmdArgs): Promise<void> {
  const conf = parseBandwidthConfig(a.config);
  const ifb = ifbName(conf.name, a.containerID);
  // TeardownIfb: a missing ifb is success (DEL-3).
  if ((await kernel.link(HOST, ifb)) === undefined) return;
  try {
    await kernel.apply([{ op: "link.del", ns: HOST, name: ifb }]);
  } catch (err) {
    if (err instanceof KernelError && err.kind === "not-found") return;
    throw err;
  }
}

async function check(kernel: Kernel, a: CmdArgs): Promise<void> {
  const conf = parseBandwidthConfig(a.config);
  const { host } = await target(kernel, conf, a, "must be called as a chained plugin");
  const bw = conf.bandwidth;
  // No bandwidth config; nothing to do (upstream main, 8c4a6b3b).
  if (bw === undefined || isZero(bw)) return;
  if (shapesIngress(bw)) checkTbf(await kernel.qdiscs(HOST, host.name), bw.ingressRate, bw.ingressBurst);
  if (shapesEgress(bw)) {
    const ifb = ifbName(conf.name, a.containerID);
    if ((await kernel.link(HOST, ifb)) === undefined) throw new Error("get ifb device: Link not found");
    checkTbf(await kernel.qdiscs(HOST, ifb), bw.egressRate, bw.egressBurst);
  }
}

/** The bandwidth plugin over a kernel: spec 0.3.0 and later, no GC or STATUS. */
export function bandwidthDefinition(kernel: Kernel): PluginDefinition {
  return {
    name: "bandwidth",
    about: "CNI bandwidth plugin (tscni)",
    versions: versionsStartingFrom("0.3.0"),
    handlers: {
      add: (a) => add(kernel, a).catch(rethrow),
      check: (a) => check(kernel, a).catch(rethrow),
      del: (a) => del(kernel, a).catch(rethrow),
    },
  };
}

/** Our errors as they are; a KernelError as a plain error with its message (code 999, like the reference's). */
function rethrow(err: unknown): never {
  if (err instanceof CniError || !(err instanceof KernelError)) throw err;
  throw new Error(err.message);
}

export { planBandwidthAdd, ifbName } from "./plan.ts";
export { planChained } from "./plan-chained.ts";
export { parseBandwidthConfig } from "./config.ts";
export { tbfParams } from "./tbf.ts";

/** The binary's entry for `bandwidth`: the netlink kernel (or `ip`/`tc` with TSCNI_KERNEL=iproute2). */
export async function main(io: PluginIO): Promise<number> {
  const kernel =
    io.env.TSCNI_KERNEL === "iproute2"
      ? (await import("@tscni/kernel/linux")).createLinuxKernel()
      : (await import("@tscni/kernel/netlink")).createNetlinkKernel();
  return pluginMain(bandwidthDefinition(kernel), io);
}
