/**
 * The vlan link an ADD creates, as data: a VLAN sub-interface of the master, born in the
 * container under a temporary name (made inside the container with `linkInContainer`).
 * Pure.
 */
import { HOST, type VlanAdd } from "@tscni/kernel";
import type { VlanConfig } from "./config.ts";

/** The `vlan.add` op of a container VLAN. */
export function vlanCreateOp(conf: VlanConfig, netns: string, tmpName: string): VlanAdd {
  return {
    op: "vlan.add",
    ns: conf.linkInContainer ? netns : HOST,
    name: tmpName,
    parent: conf.master,
    id: conf.vlanId,
    ...(conf.mtu > 0 ? { mtu: conf.mtu } : {}),
    // Always through the op's target, so the iproute2 line and the request carry it (ops-sublinks.ts).
    into: netns,
  };
}
