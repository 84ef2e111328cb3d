/**
 * The ipvlan link an ADD creates, as data: on the master, born in the container under a
 * temporary name (made inside the container with `linkInContainer`). The reference sends
 * no flag, so the kernel's default (`bridge`) applies. Pure.
 */
import { HOST, type IpvlanAdd } from "@tscni/kernel";
import { ipvlanMode, type IpvlanConfig } from "./config.ts";

/** The `ipvlan.add` op; throws the reference's error for a bad mode. */
export function ipvlanCreateOp(conf: IpvlanConfig, master: string, netns: string, tmpName: string): IpvlanAdd {
  return {
    op: "ipvlan.add",
    ns: conf.linkInContainer ? netns : HOST,
    name: tmpName,
    parent: master,
    mode: ipvlanMode(conf.mode),
    ...(conf.mtu > 0 ? { mtu: conf.mtu } : {}),
    ...(conf.linkInContainer ? {} : { into: netns }),
  };
}
