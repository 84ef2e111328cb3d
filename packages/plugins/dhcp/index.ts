/**
 * The `dhcp` IPAM plugin (the reference's plugins/ipam/dhcp): ADD asks the daemon for a
 * lease and prints the address, gateway and routes it gives (RI-1: no interfaces), DEL
 * asks it to release the lease, CHECK asks again as the reference does (the daemon wakes
 * the lease's maintenance). GC and STATUS are absent, as upstream's (ST-7, GC-10). Run
 * as `dhcp daemon [flags]` (or `cni dhcp daemon`) it is the daemon itself.
 */
import { pluginMain } from "@tscni/skel";
import type { CmdArgs, PluginDefinition, PluginHandlers, PluginIO } from "@tscni/skel";
import { VERSIONS, convertResult } from "@tscni/spec";
import type { Result, Result100 } from "@tscni/spec";
import { callDaemon } from "./call.ts";
import { parseDhcpConf } from "./config.ts";

function socketOf(a: CmdArgs): string {
  try {
    return parseDhcpConf(new TextDecoder().decode(a.stdinData)).socketPath;
  } catch (err) {
    throw new Error(
      `error obtaining socketPath: ${(err as Error).message.replace("error parsing netconf", "error parsing socket path conf")}`,
    );
  }
}

/** The plugin's handlers: thin calls to the daemon. */
export const dhcpHandlers: PluginHandlers & { add(a: CmdArgs): Promise<Result> } = {
  async add(a) {
    const result = (await callDaemon(socketOf(a), "allocate", a)) as Result100;
    // The reference's daemon leaves cniVersion empty; the result is converted to the config's version (ADD-2).
    return convertResult(result, a.config.cniVersion);
  },
  async del(a) {
    await callDaemon(socketOf(a), "release", a);
  },
  async check(a) {
    await callDaemon(socketOf(a), "allocate", a);
  },
};

/** The dhcp plugin: every spec version, as the reference's `version.All`. */
export const definition: PluginDefinition = {
  name: "dhcp",
  about: "CNI dhcp IPAM plugin (tscni)",
  versions: VERSIONS,
  handlers: dhcpHandlers,
};

/** The binary's entry for `dhcp`: the plugin, or the daemon when the first argument is `daemon`. */
export async function main(io: PluginIO & { argv?: readonly string[] }): Promise<number> {
  if (io.argv?.[0] === "daemon") {
    const { runDaemon } = await import("./daemon.ts");
    return runDaemon(io.argv.slice(1), io.stderr);
  }
  return pluginMain(definition, io);
}
