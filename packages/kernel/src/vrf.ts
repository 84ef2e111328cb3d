/**
 * VRF devices in the kernel seam (issue 12 item 3): the `vrf.add` op and its
 * `ip link add NAME type vrf table N` line. A link enslaved to a VRF (`link.set` with
 * `master`) has its routes in the VRF's table. Pure.
 */
import type { Netns } from "./ops.ts";

/** Add a VRF device bound to routing table `table`. */
export interface VrfAdd {
  op: "vrf.add";
  ns: Netns;
  name: string;
  table: number;
}

/** The `ip link add` line of a {@link VrfAdd}; `tok` refuses a value that would break the line. */
export function vrfLine(op: VrfAdd, tok: (v: string | number) => string): string {
  return `link add ${tok(op.name)} type vrf table ${tok(op.table)}`;
}
