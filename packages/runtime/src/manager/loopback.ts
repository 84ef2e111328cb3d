/**
 * The internal loopback network every pod is attached to before its default network, as
 * kubelet's CNI network plugin does (BRIEF seed design 1).
 */
import { parseConfList } from "@tscni/config";
import type { NetworkConfigList } from "@tscni/config";

/** The loopback list, byte for byte what kubelet builds (an 0.2.0 list named `cni-loopback`). */
export const LOOPBACK_CONF_LIST = '{"cniVersion":"0.2.0","name":"cni-loopback","plugins":[{"type":"loopback"}]}';

/**
 * The parsed loopback network.
 *
 * @example loopbackNetwork().plugins[0]?.network.type // "loopback"
 */
export function loopbackNetwork(): NetworkConfigList {
  return parseConfList(LOOPBACK_CONF_LIST);
}
