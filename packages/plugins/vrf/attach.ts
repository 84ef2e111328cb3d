/**
 * vrf's ADD inside the container namespace (the reference's `findVRF`, `createVRF` and
 * `addInterface`): the VRF is found or created (its table given, or the first from 1 that
 * no VRF of the namespace uses) and set up; the interface, which must have no master, is
 * enslaved; the global IPv6 addresses that enslaving flushed (keep_addr_on_down=0) come
 * back; the interface's main-table routes of scope global follow it into the VRF's table.
 * Unlike the reference, a failure undoes what this call did (ADD-6): the interface is
 * released, a VRF it created is deleted and the saved routes return to main.
 */
import type { AddrInfo, Kernel, KernelOp, LinkInfo, RouteInfo } from "@tscni/kernel";
import { goErrorText } from "../shared/go-errors.ts";
import { rollback } from "../shared/apply.ts";
import { routeAgain } from "../shared/route-copy.ts";

/** The link named `name` as a VRF; undefined when there is none, an error when it is something else. */
export async function findVrf(kernel: Kernel, ns: string, name: string): Promise<LinkInfo | undefined> {
  const link = await kernel.link(ns, name);
  if (link !== undefined && link.kind !== "vrf") throw new Error(`Netlink ${name} is not a VRF`);
  return link;
}

/** `findFreeRoutingTableID`: the first table from 1 that no VRF of the namespace is bound to. */
export function freeVrfTable(links: readonly LinkInfo[]): number {
  const taken = new Set(links.filter((l) => l.kind === "vrf").map((l) => l.vrfTable));
  let t = 1;
  while (taken.has(t)) t += 1;
  return t;
}

/** Runs one op, or throws `message: <errno text>`. */
async function step(kernel: Kernel, op: KernelOp, message: string): Promise<void> {
  try {
    await kernel.apply([op]);
  } catch (e) {
    throw new Error(`${message}: ${goErrorText(e)}`);
  }
}

/** Enslaves `ifName` to VRF `vrfName` in `ns`, creating the VRF when needed; throws the reference's message (without `cmdAdd failed: `). */
export async function attachToVrf(
  kernel: Kernel,
  ns: string,
  ifName: string,
  vrfName: string,
  table: number,
  warn: (m: string) => void,
): Promise<void> {
  let vrf = await findVrf(kernel, ns, vrfName);
  if (vrf !== undefined && table !== 0 && vrf.vrfTable !== table)
    throw new Error(`VRF ${vrfName} already exist with different routing table ${vrf.vrfTable}`);
  const undo: KernelOp[] = [];
  let saved: RouteInfo[] = [];
  let before: AddrInfo[] = [];
  try {
    if (vrf === undefined) {
      const t = table !== 0 ? table : freeVrfTable(await kernel.links(ns));
      await step(kernel, { op: "vrf.add", ns, name: vrfName, table: t }, `could not add VRF ${vrfName}`);
      undo.unshift({ op: "link.del", ns, name: vrfName });
      await step(kernel, { op: "link.set", ns, name: vrfName, up: true }, `could not set link up for VRF ${vrfName}`);
      vrf = { ...(await kernel.link(ns, vrfName))!, vrfTable: t };
    }
    const link = await kernel.link(ns, ifName);
    if (link === undefined) throw new Error(`could not get link by name ${ifName}`);
    if (link.master !== undefined) throw new Error(`interface ${ifName} has already a master set: ${link.master}`);
    before = (await kernel.addresses(ns, ifName)).filter((a) => a.family === 6 && a.scope === "global");
    saved = (await kernel.routes(ns)).filter((r) => r.dev === ifName && r.scope === "global");
    await step(
      kernel,
      { op: "link.set", ns, name: ifName, master: vrfName },
      `could not set vrf ${vrfName} as master of ${ifName}`,
    );
    undo.unshift({ op: "link.set", ns, name: ifName, master: null });
    const after = new Set((await kernel.addresses(ns, ifName)).map((a) => a.cidr));
    for (const a of before.filter((x) => !after.has(x.cidr))) {
      // The reference then waits up to ~2.5 s for the address's route in the VRF's table;
      // nodad makes it usable at once.
      await step(
        kernel,
        { op: "addr.add", ns, dev: ifName, cidr: a.cidr, nodad: true },
        `could not restore address ${a.cidr} to ${ifName} @ ${vrfName}`,
      );
    }
    for (const r of saved) {
      const op = routeAgain(ns, r, vrf.vrfTable, true);
      await step(kernel, op, `could not add route '${r.dst}${r.gw === undefined ? "" : ` via ${r.gw}`} dev ${ifName}'`);
      undo.unshift({
        op: "route.del",
        ns,
        dst: r.dst,
        dev: ifName,
        table: vrf.vrfTable ?? 0,
        ...(r.gw !== undefined && { gw: r.gw }),
      });
    }
  } catch (err) {
    for (const f of await rollback(kernel, undo)) warn(`rollback: ${f}`);
    // Releasing the interface cycles it again: its IPv6 addresses and saved routes return here.
    const restore: KernelOp[] = [
      ...before.map((a): KernelOp => ({ op: "addr.add", ns, dev: ifName, cidr: a.cidr, nodad: true })),
      ...saved.map((r) => routeAgain(ns, r, undefined, true)),
    ];
    if (undo.some((op) => op.op === "link.set"))
      for (const f of await rollback(kernel, restore)) warn(`rollback: ${f}`);
    throw err;
  }
}
