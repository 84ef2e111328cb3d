/**
 * `tap.add` in the fake kernel: a persistent tap as `ip tuntap add` leaves it (checked on
 * Linux 6.x in a throwaway netns): down, MTU 1500, a random MAC, and, once up, operstate
 * DOWN (no carrier) since no process has it open. Its owner, group and flags are kept

 * in the model. Its kind is "tun", as the kernel reports a tap (IFLA_INFO_KIND). Name clashes are "exists", as the driver reports.
 */
import type { TapAdd } from "../index.ts";
import { checkFree, checkName, insertLink } from "./link-create.ts";
import { nextMac, requireNs, type World } from "./state.ts";

/** Creates the tap `op.name`. */
export function addTap(world: World, op: TapAdd): void {
  const ns = requireNs(world, op.ns);
  checkName(op.name);
  checkFree(ns, op.name);
  const tap = {
    multiQueue: op.multiQueue === true,
    pi: op.pi === true,
    vnetHdr: op.vnetHdr === true,
    ...(op.owner !== undefined ? { owner: op.owner } : {}),
    ...(op.group !== undefined ? { group: op.group } : {}),
  };
  insertLink(ns, { kind: "tun", name: op.name, mac: nextMac(world), mtu: 1500, up: false, promisc: false, tap });
}
