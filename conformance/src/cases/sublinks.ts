/**
 * The interface plugins (macvlan, ipvlan, vlan, dummy; issue 13), judged at the protocol level. The plugin runs in the caller's namespace,
 * so nothing here may create a link there: the master is `lo` (which exists everywhere
 * and which no kernel accepts as a lower device) or a name no machine has, and every
 * case fails before a link is made or deletes in a throwaway namespace.
 */
import { check, expectError, expectSilentSuccess } from "../judge.ts";
import { ipJson, withNetns } from "../netns.ts";
import type { CaseContext, ConformanceCase } from "../types.ts";
import { pickVersion } from "./versions.ts";

const PLUGINS = ["macvlan", "ipvlan", "vlan", "dummy"] as const;
const MISSING_MASTER = "tscni-nomaster";

/** A config of the plugin under test, with host-local IPAM in the case's scratch directory. */
function config(ctx: CaseContext, cniVersion: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cniVersion,
    name: "tscni-conformance-sublink",
    type: ctx.plugin,
    master: "lo",
    vlanId: 7,
    ipam: { type: "host-local", ranges: [[{ subnet: "198.18.150.0/24" }]], dataDir: ctx.tmp },
    ...extra,
  };
}

/** Each case of `make` for every interface plugin. */
function forEach(make: (plugin: (typeof PLUGINS)[number]) => ConformanceCase | undefined): ConformanceCase[] {
  return PLUGINS.map(make).filter((c): c is ConformanceCase => c !== undefined);
}

/** The interface plugins' cases. */
export const SUBLINK_CASES: readonly ConformanceCase[] = [
  ...forEach((plugin) => ({
    id: `${plugin}.del-idempotent`,
    rule: "DEL-2 DEL-3",
    plugin,
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const v = await pickVersion(ctx, ["1.0.0", "0.4.0"]);
        // Nothing was added: DEL succeeds in a namespace without the interface, again, and with the namespace gone.
        for (const netns of [ns.path, ns.path, "/var/run/netns/tscni-conformance-absent"]) {
          expectSilentSuccess(await ctx.call("DEL", { env: { CNI_NETNS: netns }, stdin: config(ctx, v) }));
        }
        const links = await ipJson<{ ifname: string }[]>(ns, ["link", "show"]);
        check(
          links.every((l) => l.ifname === "lo"),
          `DEL must not create links: ${links.map((l) => l.ifname).join(", ")}`,
        );
      }),
  })),
  ...forEach((plugin) =>
    plugin === "dummy"
      ? undefined
      : {
          id: `${plugin}.missing-master`,
          rule: "ADD-2 §4",
          plugin,
          needsRoot: true,
          run: (ctx) =>
            withNetns(async (ns) => {
              const v = await pickVersion(ctx, ["1.0.0", "0.4.0"]);
              const e = expectError(
                await ctx.call("ADD", {
                  env: { CNI_NETNS: ns.path },
                  stdin: config(ctx, v, { master: MISSING_MASTER }),
                }),
              );
              check(/not found/i.test(e.msg), `the error must say the master was not found: ${e.msg}`);
              const links = await ipJson<{ ifname: string }[]>(ns, ["link", "show"]);
              check(
                links.every((l) => l.ifname === "lo"),
                `a failed ADD must leave no link: ${links.map((l) => l.ifname).join(", ")}`,
              );
            }),
        },
  ),
  ...forEach((plugin) =>
    plugin === "macvlan" || plugin === "ipvlan"
      ? {
          id: `${plugin}.bad-mode`,
          rule: "ADD-2 §4:7",
          plugin,
          needsRoot: true,
          // The reference checks the mode after it opens the netns: a real one is needed.
          run: (ctx) =>
            withNetns(async (ns) => {
              const v = await pickVersion(ctx, ["1.0.0", "0.4.0"]);
              // The reference answers 999 (a plain error); SPEC §4.2 says 7 (invalid network config): both are accepted.
              const e = expectError(
                await ctx.call("ADD", { env: { CNI_NETNS: ns.path }, stdin: config(ctx, v, { mode: "tscni-bogus" }) }),
              );
              check(
                e.code === 7 || e.code === 999,
                `a bad mode is an invalid config (7) or the reference's 999, got ${e.code}`,
              );
              check(
                e.msg === `unknown ${plugin} mode: "tscni-bogus"`,
                `the error must name the mode as the reference does: ${e.msg}`,
              );
            }),
        }
      : undefined,
  ),
  {
    id: "vlan.bad-id",
    rule: "ADD-2 §4:7",
    plugin: "vlan",
    run: async (ctx) => {
      const e = expectError(
        await ctx.call("ADD", { stdin: config(ctx, await pickVersion(ctx, ["1.0.0", "0.4.0"]), { vlanId: 4095 }) }),
      );
      check(
        e.code === 7 || e.code === 999,
        `an out-of-range VLAN id is an invalid config (7) or the reference's 999, got ${e.code}`,
      );
      check(e.msg.startsWith("invalid VLAN ID 4095"), `the error must name the id: ${e.msg}`);
    },
  },
  {
    id: "dummy.needs-ipam",
    rule: "ADD-2 §4",
    plugin: "dummy",
    run: async (ctx) => {
      const { ipam: _, ...noIpam } = config(ctx, await pickVersion(ctx, ["1.0.0", "0.4.0"]));
      const e = expectError(await ctx.call("ADD", { stdin: noIpam }));
      check(e.msg === "dummy interface requires an IPAM configuration", `the reference's message: ${e.msg}`);
    },
  },
];
