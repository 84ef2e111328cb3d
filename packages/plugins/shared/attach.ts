/**
 * Applying an attachment's plan: pick a free random host veth name, plan, apply with
 * rollback, and retry with a new name when the kernel reports the name taken in the
 * meantime (H-1). A taken container name is the reference's error (ADD-4). Concurrent
 * ADDs of other containers may create the shared bridge between our read and our write;
 * that too is read again and planned anew, as the reference ignores EEXIST there.
 */
import { HOST, KernelError, type Kernel, type LinkInfo } from "@tscni/kernel";
import { applyWithRollback } from "./apply.ts";
import type { PlanStep } from "./steps.ts";
import { containerNameTaken, pickVethName, VETH_NAME_TRIES, type RandomBytes } from "./veth.ts";

/** What applying needs besides the plan. */
export interface AttachPorts {
  kernel: Kernel;
  random: RandomBytes;
  warn: (msg: string) => void;
}

/** The step whose operation failed with "exists", if that is how the apply failed. */
function clashingStep(err: unknown, steps: readonly PlanStep[]): PlanStep | undefined {
  if (!(err instanceof KernelError) || err.kind !== "exists" || err.opIndex === undefined) return undefined;
  return steps[err.opIndex];
}

/**
 * Reads the kernel (`read`), plans with a fresh host veth name (`plan`) and applies.
 * Returns the applied plan. A failed apply has been rolled back when this throws.
 */
export async function applyAttachment<V extends { hostLinks: LinkInfo[] }, P extends { steps: PlanStep[] }>(
  ports: AttachPorts,
  ifName: string,
  read: () => Promise<V>,
  plan: (view: V, hostVeth: string) => P,
): Promise<{ plan: P; hostVeth: string; view: V }> {
  for (let attempt = 1; ; attempt++) {
    const view = await read();
    const hostVeth = pickVethName(new Set(view.hostLinks.map((l) => l.name)), ports.random);
    const planned = plan(view, hostVeth);
    try {
      await applyWithRollback(ports.kernel, planned.steps, ports.warn);
      return { plan: planned, hostVeth, view };
    } catch (err) {
      const clash = clashingStep(err, planned.steps);
      if (clash === undefined) throw err;
      // A shared step (the bridge, its gateway address) raced with a concurrent ADD of
      // another container: what it wanted now exists, so read again and plan on that.
      if (clash.undo === undefined) {
        if (attempt < VETH_NAME_TRIES) continue;
        throw err;
      }
      if (clash.op.op !== "veth.add") throw err;
      const hostTaken = (await ports.kernel.links(HOST)).some((l) => l.name === hostVeth);
      // Someone took the random host name between our read and our write: try another.
      if (hostTaken && attempt < VETH_NAME_TRIES) continue;
      if (hostTaken) throw new Error("failed to find a unique veth name");
      throw containerNameTaken(ifName, hostVeth);
    }
  }
}

/** The netns must exist for ADD and CHECK; the reference's wording when it does not. */
export async function requireNetns(kernel: Kernel, netns: string): Promise<void> {
  if (!(await kernel.netnsExists(netns))) throw new Error(`failed to open netns "${netns}": no such file or directory`);
}

/**
 * Fills the MACs of the result's interfaces from the kernel (they exist only after apply),
 * reading each link by name. `hostLinks` are host links read after the apply: those are
 * not read again.
 */
export async function fillMacs(
  kernel: Kernel,
  interfaces: { name: string; mac?: string; sandbox?: string }[],
  hostLinks: readonly LinkInfo[] = [],
): Promise<void> {
  const links = await Promise.all(
    interfaces.map((iface) => {
      const ns = iface.sandbox !== undefined && iface.sandbox !== "" ? iface.sandbox : HOST;
      const known = ns === HOST ? hostLinks.find((l) => l.name === iface.name) : undefined;
      return known ?? kernel.link(ns, iface.name);
    }),
  );
  links.forEach((link, i) => {
    const iface = interfaces[i];
    if (link !== undefined && iface !== undefined) iface.mac = link.mac;
  });
}
