/**
 * The ptp plugin (SPEC.md §8.2, BRIEF item 4): IPAM first, then a veth pair planned on a
 * read of the kernel and applied with rollback. Unlike the reference, every failure
 * after IPAM ADD releases the address (ADD-6), and a failed ADD leaves no interface.
 * DEL releases IPAM first and tolerates a gone namespace (DEL-2, DEL-3).
 */
import type { Firewall, FirewallTx } from "@tscni/firewall";
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { VERSIONS, type Result100 } from "@tscni/spec";
import { alongside } from "../shared/alongside.ts";
import { rollback } from "../shared/apply.ts";
import { delMasq, linkMasqNets, planMasq, startMasq } from "../shared/masq.ts";
import { undoOf } from "../shared/steps.ts";
import { applyAttachment, fillMacs, requireNetns } from "../shared/attach.ts";
import { prevResultOf } from "../shared/lifecycle.ts";
import { deleteOwnContainerLink, hostEndOf, prevHostNames } from "../shared/ownership.ts";
import type { PluginPorts } from "../shared/ports.ts";
import { containerNameTaken, pickVethName, randomVethName } from "../shared/veth.ts";
import { checkPtp } from "./check.ts";
import { parsePtpConfig, validateForAdd } from "./config.ts";
import { planPtpAdd, type PtpAddPlan } from "./plan.ts";
import { readCheckView } from "../shared/check-view.ts";
import { familiesOf, readPtpView } from "./view.ts";

async function add(ports: PluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parsePtpConfig(a.config);
  validateForAdd(conf);
  // The firewall's code loads during IPAM; a failure to load shows when the masquerade applies.
  const firewallReady = conf.ipMasq ? ports.firewall.prepare?.().catch(() => {}) : undefined;
  // IPAM first, as the reference (§8.2 step 1): its errors win over the netns's and a
  // taken name's (ADD-4), which release the address again below.
  const ipam = ports.ipam(conf.ipamType, a);
  const ipamResult = await ipam.add();
  let undoKernel: (() => Promise<void>) | undefined;
  let undoMasq: (() => Promise<void>) | undefined;
  try {
    await requireNetns(ports.kernel, a.netns);
    const families = familiesOf(ipamResult.ips ?? []);
    let fresh: Awaited<ReturnType<typeof readPtpView>> | undefined = await readPtpView(
      ports.kernel,
      a.netns,
      a.ifName,
      families,
    );
    if (fresh.containerLinks.some((l) => l.name === a.ifName))
      throw containerNameTaken(a.ifName, randomVethName(ports.random));
    const read = async () => {
      const v = fresh ?? (await readPtpView(ports.kernel, a.netns, a.ifName, families));
      fresh = undefined;
      return v;
    };
    // The reference masquerades last (§8.2 step 7); we start with the kernel steps, so the
    // restore runs while the veth is made (the rules name addresses, no link). Each part
    // records what it did as it finishes, and a failure of either undoes both below.
    await firewallReady;
    const masq = startMasq(ports, conf, a, ipamResult.ips ?? [], (undo) => (undoMasq = undo));
    const kernel = applyAttachment(ports, a.ifName, read, (view, hostVeth) =>
      planPtpAdd({ conf, netns: a.netns, ifName: a.ifName, ipam: ipamResult, view, hostVeth }),
    ).then((applied) => {
      undoKernel = async () => {
        for (const f of await rollback(ports.kernel, undoOf(applied.plan.steps))) ports.warn(`rollback: ${f}`);
      };
      return applied;
    });
    const result = (await alongside(kernel, masq)).plan.result;
    await fillMacs(ports.kernel, result.interfaces ?? []);
    return result;
  } catch (err) {
    await undoMasq?.().catch((e: unknown) => ports.warn(`rollback: ${e instanceof Error ? e.message : String(e)}`));
    await undoKernel?.();
    // Release the address on every failure path, the early ones included (ADD-6, §8.2 step 1).
    await ipam
      .del()
      .catch((e: unknown) => ports.warn(`IPAM DEL after a failed ADD: ${e instanceof Error ? e.message : String(e)}`));
    throw err;
  }
}

async function check(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parsePtpConfig(a.config);
  await requireNetns(ports.kernel, a.netns);
  await ports.ipam(conf.ipamType, a).check();
  const prev = prevResultOf(a, "ptp: Required prevResult missing");
  const hostNames = (prev.interfaces ?? []).filter((i) => (i.sandbox ?? "") === "").map((i) => i.name);
  const problem = checkPtp(a.netns, a.ifName, prev, await readCheckView(ports.kernel, a.netns, a.ifName, hostNames));
  if (problem !== undefined) throw new Error(problem);
}

async function del(ports: PluginPorts, a: CmdArgs): Promise<void> {
  const conf = parsePtpConfig(a.config);
  const firewallReady = conf.ipMasq ? ports.firewall.prepare?.().catch(() => {}) : undefined;
  // IPAM first, its errors propagate (§8.2 DEL, DEL-6); then the link, if anything is left.
  await ports.ipam(conf.ipamType, a).del();
  // The addresses the link has before it goes, for the masquerade teardown (§8.2 DEL step 4).
  const masqIps = conf.ipMasq && a.netns !== "" ? await linkMasqNets(ports.kernel, a.netns, a.ifName) : [];
  await firewallReady;
  // Unlike the reference, also without a netns or an address: the chain and the nft rules
  // are found by name and hash, so a late DEL leaves nothing behind either (DEL-3). Started
  // before the link goes (the reference tears down after it, §8.2 DEL step 4): the restore
  // runs while the kernel deletes the veth, and it runs whatever the link's delete does.
  const masq = delMasq(ports, conf, { ifName: a.ifName, cid: a.containerID }, masqIps);
  // Only the interface our ADD made goes; a foreign one of that name stays (issue 16).
  const hostNames = prevHostNames(a.config);
  await alongside(
    deleteOwnContainerLink(ports.kernel, a.netns, a.ifName, hostEndOf(hostNames), ports.warn, hostNames),
    masq,
  );
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
): Promise<PtpAddPlan & { firewall: FirewallTx }> {
  const conf = parsePtpConfig(a.config);
  validateForAdd(conf);
  await requireNetns(ports.kernel, a.netns);
  const view = await readPtpView(ports.kernel, a.netns, a.ifName);
  const ipamResult = await ipam(conf.ipamType);
  if (ipamResult === undefined) throw new Error("no plugin name provided");
  const hostVeth = pickVethName(new Set(view.hostLinks.map((l) => l.name)), ports.random);
  const plan = planPtpAdd({ conf, netns: a.netns, ifName: a.ifName, ipam: ipamResult, view, hostVeth });
  return {
    ...plan,
    firewall: await planMasq(
      ports.firewall,
      conf,
      { ifName: a.ifName, cid: a.containerID },
      (plan.result.ips ?? []).map((ip) => ip.address),
    ),
  };
}

/** The ptp handlers over the given ports. */
export function ptpHandlers(ports: PluginPorts): PluginHandlers {
  return {
    add: (a) => add(ports, a),
    check: (a) => check(ports, a),
    del: (a) => del(ports, a),
    // ptp has no state of its own to collect; IPAM may (GC-4). STATUS goes to IPAM even
    // with an empty type, which fails "no plugin name provided" as the reference (§8.2).
    gc: (a) => ports.ipam(parsePtpConfig(a.config).ipamType, a).gc(),
    status: (a) => ports.ipam(parsePtpConfig(a.config).ipamType, a).status(),
  };
}

/** The ptp plugin over the given ports: every spec version (0.1.0..1.1.0). */
export function ptpDefinition(ports: PluginPorts): PluginDefinition {
  return { name: "ptp", about: "CNI ptp plugin (tscni)", versions: VERSIONS, handlers: ptpHandlers(ports) };
}

/** The binary's entry for `ptp`: the real kernel and IPAM. */
export async function main(io: PluginIO): Promise<number> {
  const { realPorts, realSkelPorts } = await import("../shared/real-ports.ts");
  const { serialisedDefinition } = await import("../shared/serialise.ts");
  return pluginMain(serialisedDefinition(ptpDefinition(realPorts(io.env, io.stderr))), io, realSkelPorts);
}
