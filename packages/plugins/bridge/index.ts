/**
 * The bridge plugin (SPEC.md §8.1, BRIEF item 5): ADD plans on a read of the kernel and
 * applies the plan with rollback; a failed ADD leaves no veth and no IP reservation
 * (ADD-6). CHECK compares the previous result with the kernel (CHK-3); DEL tolerates a
 * gone namespace and still releases IPAM (DEL-2, DEL-3); GC and STATUS go to IPAM.
 */
import { HOST, type LinkInfo } from "@tscni/kernel";
import type { Firewall, FirewallTx } from "@tscni/firewall";
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { VERSIONS, convertResult, type Result100 } from "@tscni/spec";
import { alongside } from "../shared/alongside.ts";
import { rollback } from "../shared/apply.ts";
import { applyAttachment, fillMacs, requireNetns } from "../shared/attach.ts";
import { delMasq, linkMasqNets, planMasq, startMasq } from "../shared/masq.ts";
import { prevResultOf, settleAddresses } from "../shared/lifecycle.ts";
import { deleteOwnContainerLink, portOf, prevHostNames } from "../shared/ownership.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { undoOf } from "../shared/steps.ts";
import { containerNameTaken, pickVethName, randomMac, randomVethName } from "../shared/veth.ts";
import { checkBridge } from "./check.ts";
import { parseBridgeConfig, validateForAdd, type BridgeConfig } from "./config.ts";
import { planBridgeAdd, type BridgeAddPlan, type BridgeView } from "./plan.ts";
import { readCheckView } from "../shared/check-view.ts";
import { readBridgeView } from "./view.ts";
import { checkSpoofCheck, setupSpoofCheck, spoofCheckId, teardownSpoofCheck } from "./spoofcheck.ts";

/**
 * How long the host end may take to come up: the reference polls after 0, 50, 500, 1000
 * and 1000 ms, so it gives up after 2.55 s. We give up at the same point but poll after
 * 1, 2, 4, ... ms (at most every 250 ms): the port is usually up within a millisecond,
 * and the reference's first sleep alone would cost 50 ms.
 */
const PORT_UP_DEADLINE_MS = 2550;

/** Waits until the host end is oper-up (§8.1 step 11); returns the link as it last read it. */
async function waitPortUp(ports: PluginPorts, name: string): Promise<LinkInfo> {
  for (let waited = 0, step = 1; ; waited += step, step = Math.min(step * 2, 250)) {
    const link = await ports.kernel.link(HOST, name);
    if (link === undefined) throw new Error(`failed to lookup "${name}": link not found`);
    const state = link.operState.toLowerCase();
    if (state === "up") return link;
    if (waited >= PORT_UP_DEADLINE_MS) throw new Error(`bridge port in error state: ${state}`);
    await ports.sleep(Math.min(step, PORT_UP_DEADLINE_MS - waited));
  }
}

async function add(ports: PluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseBridgeConfig(a.config, a.args);
  validateForAdd(conf);
  // The firewall's code loads while the kernel is read, not when the masquerade starts.
  // A failure to load shows again, and is reported, when the masquerade applies.
  const firewallReady = conf.ipMasq && conf.ipamType !== "" ? ports.firewall.prepare?.().catch(() => {}) : undefined;
  await requireNetns(ports.kernel, a.netns);
  const view = await readBridgeView(ports.kernel, conf, a.netns, a.ifName);
  // Refuse a taken name before IPAM reserves anything (ADD-4).
  if (view.containerLinks.some((l) => l.name === a.ifName))
    throw containerNameTaken(a.ifName, randomVethName(ports.random));
  const ipam = conf.ipamType !== "" ? ports.ipam(conf.ipamType, a) : undefined;
  const ipamResult = ipam === undefined ? undefined : await ipam.add();
  let applied: Awaited<ReturnType<typeof applyBridge>> | undefined;
  let undoMasq: (() => Promise<void>) | undefined;
  try {
    // L3 only. The reference masquerades after the kernel steps (§8.1 step 9); we start
    // with them, so the restore runs while the veth is made (the rules name addresses, no
    // link), and a failure of either part rolls back both below.
    await firewallReady;
    const masq =
      ipamResult === undefined
        ? Promise.resolve()
        : startMasq(ports, conf, a, ipamResult.ips ?? [], (undo) => (undoMasq = undo));
    // Each part records what it did as it finishes, whatever the other does.
    const kernel = applyBridge(ports, conf, a, ipamResult, view).then((done) => (applied = done));
    const attached = await alongside(kernel, masq);
    const result = attached.plan.result;
    const port = conf.disableContainerInterface ? undefined : await waitPortUp(ports, attached.hostVeth);
    if (conf.enabledad && (result.ips ?? []).some((ip) => ip.address.includes(":")))
      await settleAddresses(ports.kernel, a.netns, a.ifName, ports.sleep);
    // The host end just read is current: its MAC comes from that read, not from a new one.
    await fillMacs(ports.kernel, result.interfaces ?? [], port === undefined ? [] : [port]);
    if (conf.macspoofchk)
      await setupSpoofCheck(
        ports.firewall,
        attached.hostVeth,
        result.interfaces?.find((i) => i.sandbox === a.netns)?.mac ?? "",
        spoofCheckId(a.containerID, a.ifName),
      );
    // A result the config's version cannot express (an L2 result at 0.1.0/0.2.0 has no IP)
    // fails here, inside the rollback, not later in the framework after the kernel changed.
    convertResult(result, conf.cniVersion);
    return result;
  } catch (err) {
    // The reference leaves its rules behind here; we remove them (ADD-6).
    await undoMasq?.().catch((e: unknown) => ports.warn(`rollback: ${e instanceof Error ? e.message : String(e)}`));
    if (applied !== undefined)
      for (const f of await rollback(ports.kernel, undoOf(applied.plan.steps))) ports.warn(`rollback: ${f}`);
    // Release the address IPAM gave us (ADD-6).
    await ipam
      ?.del()
      .catch((e: unknown) => ports.warn(`IPAM DEL after a failed ADD: ${e instanceof Error ? e.message : String(e)}`));
    // A failed ADD leaves no spoof-check chain either (ADD-6; §8.1 macspoofchk).
    if (conf.macspoofchk)
      await teardownSpoofCheck(ports.firewall, spoofCheckId(a.containerID, a.ifName)).then(
        (f) => f !== undefined && ports.warn(f),
      );
    throw err;
  }
}

/** Plans and applies with a fresh host veth name; the first attempt uses the view already read. */
function applyBridge(
  ports: PluginPorts,
  conf: BridgeConfig,
  a: CmdArgs,
  ipam: Result100 | undefined,
  first: BridgeView,
) {
  let fresh: BridgeView | undefined = first;
  const read = async (): Promise<BridgeView> => {
    const v = fresh ?? (await readBridgeView(ports.kernel, conf, a.netns, a.ifName));
    fresh = undefined;
    return v;
  };
  return applyAttachment(ports, a.ifName, read, (view, hostVeth) =>
    planBridgeAdd({
      conf,
      netns: a.netns,
      ifName: a.ifName,
      ipam,
      view,
      hostVeth,
      gatewayPeer: pickVethName(new Set([...view.hostLinks.map((l) => l.name), hostVeth]), ports.random),
      bridgeMac: randomMac(ports.random),
    }),
  );
}

async function check(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseBridgeConfig(a.config, a.args);
  await requireNetns(ports.kernel, a.netns);
  // [DIFF] §8.1 CHECK quirk: the reference runs IPAM CHECK even on an L2 network, where it
  // fails with "no plugin name provided"; we check IPAM only when there is one.
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "Required prevResult missing");
  const hostNames = [
    conf.bridge,
    ...(prev.interfaces ?? []).filter((i) => (i.sandbox ?? "") === "").map((i) => i.name),
  ];
  const problem = checkBridge(
    conf,
    a.netns,
    a.ifName,
    prev,
    await readCheckView(ports.kernel, a.netns, a.ifName, hostNames),
  );
  if (problem !== undefined) throw new Error(problem);
  const mac = prev.interfaces?.find((i) => i.sandbox === a.netns)?.mac ?? "";
  const spoof = conf.macspoofchk
    ? checkSpoofCheck(await ports.firewall.nftTable("bridge", "nat"), mac, spoofCheckId(a.containerID, a.ifName))
    : undefined;
  if (spoof !== undefined) throw new Error(spoof);
}

async function del(ports: PluginPorts, a: CmdArgs): Promise<void> {
  // A config or CNI_ARGS that does not parse fails DEL, as the reference (§8.1 DEL step 1).
  const conf = parseBridgeConfig(a.config, a.args);
  const layer3 = conf.ipamType !== "";
  const firewallReady = layer3 && conf.ipMasq ? ports.firewall.prepare?.().catch(() => {}) : undefined;
  // The addresses the link has before it goes, for the masquerade teardown (§8.1 DEL step 4).
  const masqIps = layer3 && conf.ipMasq && a.netns !== "" ? await linkMasqNets(ports.kernel, a.netns, a.ifName) : [];
  await firewallReady;
  // Unlike the reference, also without a netns or a link: the chain and the nft rules are
  // found by name and hash, so a late DEL leaves nothing behind either (DEL-3). Started
  // before the link goes (the reference tears down after, §8.1 DEL step 4): its restore
  // runs while the kernel deletes the veth, and it runs whatever else fails below.
  const masq = layer3 ? delMasq(ports, conf, { ifName: a.ifName, cid: a.containerID }, masqIps) : Promise.resolve();
  await alongside(delBridgeLinkAndIpam(ports, conf, a), masq);
}

/** DEL's kernel and IPAM part: the container's link, its spoof-check chains, its address. */
async function delBridgeLinkAndIpam(ports: PluginPorts, conf: BridgeConfig, a: CmdArgs): Promise<void> {
  // Only the interface our ADD made goes; a foreign one of that name stays (issue 16).
  await deleteOwnContainerLink(
    ports.kernel,
    a.netns,
    a.ifName,
    portOf(conf.bridge),
    ports.warn,
    prevHostNames(a.config).filter((n) => n !== conf.bridge),
  );
  // The spoof-check chains go whatever else failed; their errors are only logged (§8.1 DEL step 4).
  if (conf.macspoofchk)
    await teardownSpoofCheck(ports.firewall, spoofCheckId(a.containerID, a.ifName)).then(
      (f) => f !== undefined && ports.warn(f),
    );
  // IPAM is released even when the namespace is gone (DEL-2); its errors propagate (DEL-6).
  if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).del();
}

/**
 * What an ADD would do, for `cni plan`: reads the kernel and plans with `ipam` as IPAM's
 * answer (peeked, not reserved), and the firewall transaction of its ipMasq (the backend
 * chosen from what `ports.firewall` supports when unset). Applies nothing.
 */
export async function planAdd(
  ports: Pick<PluginPorts, "kernel" | "random"> & { firewall?: Firewall },
  a: CmdArgs,
  ipam: (type: string) => Promise<Result100 | undefined>,
): Promise<BridgeAddPlan & { firewall: FirewallTx }> {
  const conf = parseBridgeConfig(a.config, a.args);
  validateForAdd(conf);
  await requireNetns(ports.kernel, a.netns);
  const view = await readBridgeView(ports.kernel, conf, a.netns, a.ifName);
  const hostVeth = pickVethName(new Set(view.hostLinks.map((l) => l.name)), ports.random);
  const ipamResult = conf.ipamType === "" ? undefined : await ipam(conf.ipamType);
  const plan = planBridgeAdd({
    conf,
    netns: a.netns,
    ifName: a.ifName,
    ipam: ipamResult,
    view,
    hostVeth,
    gatewayPeer: pickVethName(new Set([...view.hostLinks.map((l) => l.name), hostVeth]), ports.random),
    bridgeMac: randomMac(ports.random),
  });
  const ips = ipamResult === undefined ? [] : (plan.result.ips ?? []).map((ip) => ip.address);
  return {
    ...plan,
    firewall:
      ipamResult === undefined
        ? []
        : await planMasq(ports.firewall, conf, { ifName: a.ifName, cid: a.containerID }, ips),
  };
}

/** The bridge handlers over the given ports. */
export function bridgeHandlers(ports: PluginPorts): PluginHandlers {
  return {
    add: (a) => add(ports, a),
    check: (a) => check(ports, a),
    del: (a) => del(ports, a),
    gc: async (a) => {
      const conf = parseBridgeConfig(a.config, a.args);
      if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).gc();
    },
    status: async (a) => {
      const conf = parseBridgeConfig(a.config, a.args);
      if (conf.ipamType !== "") await ports.ipam(conf.ipamType, a).status();
    },
  };
}

/** The bridge plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function bridgeDefinition(ports: PluginPorts): PluginDefinition {
  return { name: "bridge", about: "CNI bridge plugin (tscni)", versions: VERSIONS, handlers: bridgeHandlers(ports) };
}

/** The binary's entry for `bridge`: the real kernel and IPAM. */
export async function main(io: PluginIO): Promise<number> {
  const { realPorts, realSkelPorts } = await import("../shared/real-ports.ts");
  const { serialisedDefinition } = await import("../shared/serialise.ts");
  return pluginMain(serialisedDefinition(bridgeDefinition(realPorts(io.env, io.stderr))), io, realSkelPorts);
}
