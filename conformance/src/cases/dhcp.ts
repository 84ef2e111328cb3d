/**
 * The dhcp IPAM plugin at the protocol level (the reference's plugins/ipam/dhcp): it is
 * a client of its daemon, so without one every command fails with an error object on
 * stdout naming the daemon's socket (the reference's `error dialing DHCP daemon`), and
 * nothing is left behind. The framework cases (version gates, env, names) run as for any
 * plugin.
 */
import { join } from "node:path";
import { check, expectError } from "../judge.ts";
import type { ConformanceCase } from "../types.ts";
import { pickVersion } from "./versions.ts";

async function config(ctx: Parameters<ConformanceCase["run"]>[0], socket: string): Promise<Record<string, unknown>> {
  return {
    cniVersion: await pickVersion(ctx),
    name: "tscni-conformance",
    type: "bridge",
    ipam: { type: ctx.plugin, daemonSocketPath: socket },
  };
}

/** dhcp's cases. */
export const DHCP_CASES: readonly ConformanceCase[] = [
  {
    id: "dhcp.no-daemon",
    rule: "§4 ADD-1",
    plugin: "dhcp",
    run: async (ctx) => {
      const socket = join(ctx.tmp, "no-daemon.sock");
      for (const command of ["ADD", "CHECK", "DEL"]) {
        const e = expectError(await ctx.call(command, { stdin: await config(ctx, socket) }));
        check(
          e.msg.includes("error dialing DHCP daemon") && e.msg.includes(socket),
          `${command} without a daemon must say it cannot reach ${socket}: ${JSON.stringify(e.msg)}`,
        );
      }
    },
  },
];
