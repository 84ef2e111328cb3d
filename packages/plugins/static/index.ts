/**
 * The static IPAM plugin (issue 12 item 4): the addresses, routes and DNS its config
 * names, from `ipam`, CNI_ARGS `IP=`/`GATEWAY=`, `args.cni.ips` or the `ips` capability
 * (config.ts). It keeps no state: ADD prints the result, DEL has nothing to release
 * (DEL-2, DEL-3), CHECK compares the configured addresses and gateways with prevResult
 * (CHK-1). No GC or STATUS handler, as the reference (ST-7).
 */
import {
  parsePrevResult,
  pluginMain,
  type CmdArgs,
  type PluginDefinition,
  type PluginHandlers,
  type PluginIO,
} from "@tscni/skel";
import { CURRENT_VERSION, VERSIONS, type Result100 } from "@tscni/spec";
import { formatCIDR, formatIP, parseCIDR, parseIP, ipEqual } from "@tscni/spec/ipnet";
import { loadStaticConfig } from "./config.ts";

/** ADD: the result holds the addresses in config order, then the routes and the DNS (ADD-2: printed in the config's version). */
function add(a: CmdArgs): Result100 {
  const conf = loadStaticConfig(a.config, a.args);
  const result: Result100 = { cniVersion: CURRENT_VERSION, ips: [], routes: conf.routes, dns: conf.dns };
  for (const addr of conf.addresses) {
    result.ips?.push({
      address: formatCIDR(addr.address),
      ...(addr.gateway !== undefined && { gateway: formatIP(addr.gateway) }),
    });
  }
  if (result.ips?.length === 0) delete result.ips;
  if (result.routes?.length === 0) delete result.routes;
  return result;
}

/**
 * CHECK: every configured address found in prevResult must carry the configured
 * gateway when one is configured; an address missing from prevResult passes, as the
 * reference's loop lets it.
 */
function check(a: CmdArgs): void {
  const conf = loadStaticConfig(a.config, a.args);
  if (a.config.prevResult === undefined || a.config.prevResult === null) throw new Error("Required prevResult missing");
  const prev = parsePrevResult(a.config);
  for (const want of conf.addresses) {
    for (const got of prev?.ips ?? []) {
      const ip = parseCIDR(got.address)?.ip;
      if (ip === undefined || !ipEqual(ip, want.address.ip)) continue;
      const gw = got.gateway === undefined ? undefined : parseIP(got.gateway);
      if (want.gateway === undefined || (gw !== undefined && ipEqual(gw, want.gateway))) break;
      throw new Error(`static: Failed to match addr ${formatIP(ip)} on interface ${a.ifName}`);
    }
  }
}

/** static's handlers: ADD, CHECK, and a DEL with nothing to undo. */
export const staticHandlers: PluginHandlers = {
  add: async (a) => add(a),
  check: async (a) => check(a),
  del: async () => {},
};

/** The static plugin: every spec version (`version.All`). */
export const definition: PluginDefinition = {
  name: "static",
  about: "CNI static plugin (tscni)",
  versions: VERSIONS,
  handlers: staticHandlers,
};

/** The binary's entry for `static`. */
export function main(io: PluginIO): Promise<number> {
  return pluginMain(definition, io);
}
