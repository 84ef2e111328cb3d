/**
 * The vrf plugin (issue 12 item 3), chained only: ADD puts the interface into a VRF
 * (created when needed; attach.ts) and passes the previous result on; DEL releases the
 * interface and deletes the VRF when no other interface is left in it; CHECK verifies
 * the interface is in the VRF. Spec versions from 0.3.1, as the reference; no GC or STATUS.
 */
import type { Kernel } from "@tscni/kernel";
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { versionsStartingFrom, type Result100 } from "@tscni/spec";
import { goErrorText } from "../shared/go-errors.ts";
import { invalidConfig } from "../shared/netconf.ts";
import { attachToVrf, findVrf } from "./attach.ts";
import { parseVrfConfig } from "./config.ts";

/** What vrf needs from the outside world. */
export interface VrfPorts {
  kernel: Kernel;
  /** Diagnostics that do not fail the command (stderr in the binary). */
  warn: (msg: string) => void;
}

async function add(ports: VrfPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseVrfConfig(a.config);
  // v1.1.1 (Debian) differs: code 999 for a plain error; SPEC §4.2 gives code 7 (invalid network config)
  if (conf.prevResult === undefined) throw invalidConfig("missing prevResult from earlier plugin");
  try {
    await attachToVrf(ports.kernel, a.netns, a.ifName, conf.vrfName, conf.table, ports.warn);
  } catch (err) {
    throw new Error(`cmdAdd failed: ${goErrorText(err)}`);
  }
  return conf.prevResult;
}

async function del(ports: VrfPorts, a: CmdArgs): Promise<void> {
  const conf = parseVrfConfig(a.config);
  const k = ports.kernel;
  // A namespace that is gone has nothing left to release (DEL-2), as the reference's NSPathNotExistErr case.
  if (a.netns === "" || !(await k.netnsExists(a.netns))) return;
  const vrf = await findVrf(k, a.netns, conf.vrfName);
  if (vrf === undefined) return;
  // [DIFF] The reference fails (`resetMaster: could not get link by name`) when the interface is
  // gone but the VRF is not; DEL-3 makes that a success, and the VRF still goes when it is empty.
  if ((await k.link(a.netns, a.ifName)) !== undefined) {
    await k.apply([{ op: "link.set", ns: a.netns, name: a.ifName, master: null }]).catch(() => {
      throw new Error(`resetMaster: could reset master to ${a.ifName}`);
    });
  }
  if ((await k.links(a.netns)).some((l) => l.master === conf.vrfName)) return;
  await k.apply([{ op: "link.del", ns: a.netns, name: conf.vrfName }]).catch((e: unknown) => {
    throw new Error(goErrorText(e));
  });
}

async function check(ports: VrfPorts, a: CmdArgs): Promise<void> {
  const conf = parseVrfConfig(a.config);
  if (conf.prevResult === undefined) throw invalidConfig("missing prevResult from earlier plugin");
  const vrf = await findVrf(ports.kernel, a.netns, conf.vrfName);
  // v1.1.1 (Debian) differs: its CHECK never fails; upstream main returns these errors.
  if (vrf === undefined) throw new Error("Link not found");
  const slaves = (await ports.kernel.links(a.netns)).filter((l) => l.master === conf.vrfName);
  if (!slaves.some((l) => l.name === a.ifName))
    throw new Error(`failed to find ${a.ifName} associated to vrf ${conf.vrfName}`);
}

export { planChained } from "./plan-chained.ts";

/** The vrf handlers over the given ports. */
export function vrfHandlers(ports: VrfPorts): PluginHandlers {
  return { add: (a) => add(ports, a), check: (a) => check(ports, a), del: (a) => del(ports, a) };
}

/** The vrf plugin: spec versions from 0.3.1 (the reference's `VersionsStartingFrom("0.3.1")`). */
export function vrfDefinition(ports: VrfPorts): PluginDefinition {
  return {
    name: "vrf",
    about: "CNI vrf plugin (tscni)",
    versions: versionsStartingFrom("0.3.1"),
    handlers: vrfHandlers(ports),
  };
}

/** The binary's entry for `vrf`: the netlink driver (`ip` with TSCNI_KERNEL=iproute2). */
export async function main(io: PluginIO): Promise<number> {
  const kernel =
    io.env.TSCNI_KERNEL === "iproute2"
      ? (await import("@tscni/kernel/linux")).createLinuxKernel()
      : (await import("@tscni/kernel/netlink")).createNetlinkKernel();
  return pluginMain(vrfDefinition({ kernel, warn: (m) => io.stderr(`${m}\n`) }), io);
}
