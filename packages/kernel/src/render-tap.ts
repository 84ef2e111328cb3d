/**
 * `tap.add` as the `ip tuntap add` line that makes the same device: iproute2 sets
 * IFF_NO_PI unless `pi` is given, and IFF_VNET_HDR / IFF_MULTI_QUEUE on `vnet_hdr` /
 * `multi_queue`.
 */
import type { TapAdd } from "./ops.ts";

/** The `ip` batch line of a tap.add; `tok` refuses a value that would break the line. */
export function renderTapAdd(op: TapAdd, tok: (v: string | number) => string): { tool: "ip"; line: string } {
  const w = ["tuntap add dev", tok(op.name), "mode tap"];
  if (op.pi === true) w.push("pi");
  if (op.vnetHdr === true) w.push("vnet_hdr");
  if (op.multiQueue === true) w.push("multi_queue");
  if (op.owner !== undefined) w.push("user", tok(op.owner));
  if (op.group !== undefined) w.push("group", tok(op.group));
  return { tool: "ip", line: w.join(" ") };
}
