/**
 * The parts of ADD, CHECK and DEL that bridge and ptp share: the previous result for
 * CHECK, the link deletion of DEL that tolerates what is already gone (DEL-2, DEL-3),
 * and waiting for IPv6 addresses to leave the tentative state.
 */
import { KernelError, type Kernel } from "@tscni/kernel";
import { parsePrevResult, type CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";

/** The previous result of a CHECK in 1.x form (PR-1..PR-3); `missing` is the message when there is none. */
export function prevResultOf(args: CmdArgs, missing: string): Result100 {
  const prev = parsePrevResult(args.config);
  if (prev === undefined) throw new Error(missing);
  return prev;
}

/**
 * Deletes the container interface. Returns false when the namespace is gone, which DEL
 * accepts (DEL-2); a missing link is fine too (DEL-3).
 */
export async function deleteContainerLink(kernel: Kernel, netns: string, ifName: string): Promise<boolean> {
  if (!(await kernel.netnsExists(netns))) return false;
  try {
    await kernel.apply([{ op: "link.del", ns: netns, name: ifName }]);
  } catch (err) {
    if (err instanceof KernelError && err.kind === "not-found") return true;
    if (err instanceof KernelError && err.kind === "netns-gone") return false;
    throw err;
  }
  return true;
}

/** Waits until `ifName` has no tentative IPv6 address (H-2: up to 5 s), failing on DAD failure. */
export async function settleAddresses(
  kernel: Kernel,
  netns: string,
  ifName: string,
  sleep: (ms: number) => Promise<void>,
  timeoutMs = 5000,
): Promise<void> {
  for (let waited = 0; ; waited += 100) {
    const addrs = (await kernel.addresses(netns, ifName)).filter((a) => a.family === 6);
    const failed = addrs.find((a) => a.dadfailed === true);
    if (failed !== undefined) throw new Error(`link ${ifName} has address ${failed.cidr} in DAD-failed state`);
    if (!addrs.some((a) => a.tentative === true)) return;
    if (waited >= timeoutMs) throw new Error(`link ${ifName} still has tentative addresses after ${timeoutMs / 1000}s`);
    await sleep(100);
  }
}
