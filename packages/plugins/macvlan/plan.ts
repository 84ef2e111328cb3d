/**
 * The macvlan link an ADD creates, as data: on the master, born in the container under a
 * temporary name (or made inside the container with `linkInContainer`, where the master
 * then lives). Pure.
 */
import { HOST, type MacvlanAdd } from "@tscni/kernel";
import { goMacError, parseGoMac } from "../shared/go-mac.ts";
import { macvlanMode, type MacvlanConfig } from "./config.ts";

/** The `macvlan.add` op; throws the reference's errors for a bad mode or MAC, in its order. */
export function macvlanCreateOp(conf: MacvlanConfig, master: string, netns: string, tmpName: string): MacvlanAdd {
  const mode = macvlanMode(conf.mode);
  let mac: string | undefined;
  if (conf.mac !== undefined) {
    mac = parseGoMac(conf.mac);
    if (mac === undefined) throw new Error(`invalid args ${conf.mac} for MAC addr: ${goMacError(conf.mac)}`);
  }
  return {
    op: "macvlan.add",
    ns: conf.linkInContainer ? netns : HOST,
    name: tmpName,
    parent: master,
    mode,
    ...(conf.mtu > 0 ? { mtu: conf.mtu } : {}),
    ...(mac !== undefined ? { mac } : {}),
    ...(conf.bcqueuelen > 0 ? { bcqueuelen: conf.bcqueuelen } : {}),
    ...(conf.linkInContainer ? {} : { into: netns }),
  };
}
