/**
 * The master look-ups the interface plugins make before they create anything, in the
 * reference's order: the default route's interface when `master` is empty, then (macvlan,
 * vlan) the master's MTU as the bound of the configured one. With `linkInContainer` they
 * happen in the container's namespace, which must then exist.
 */
import type { Kernel } from "@tscni/kernel";
import { requireNetns } from "./attach.ts";
import { checkMtu, defaultRouteInterface, masterLink, masterNs } from "./master.ts";

/** What the look-up needs from a config. */
export interface MasterConf {
  master: string;
  mtu: number;
  linkInContainer: boolean;
}

/** The master's name, defaulted as the reference does; with `boundMtu`, its MTU must bound the configured one. */
export async function resolveMaster(
  kernel: Kernel,
  conf: MasterConf,
  netns: string,
  boundMtu: boolean,
): Promise<string> {
  const ns = masterNs(netns, conf.linkInContainer);
  if (conf.linkInContainer) await requireNetns(kernel, netns);
  const master = conf.master !== "" ? conf.master : await defaultRouteInterface(kernel, ns);
  if (boundMtu) checkMtu(conf.mtu, (await masterLink(kernel, ns, master)).mtu);
  return master;
}

/** The master must exist when the link is made: the reference's `failed to lookup master` error. */
export async function lookupMaster(
  kernel: Kernel,
  master: string,
  netns: string,
  linkInContainer: boolean,
): Promise<void> {
  try {
    await masterLink(kernel, masterNs(netns, linkInContainer), master);
  } catch (err) {
    throw new Error(
      `failed to lookup master ${JSON.stringify(master)}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
