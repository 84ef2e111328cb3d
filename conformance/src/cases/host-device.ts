/**
 * The host-device plugin judged in throwaway namespaces, with requests that change
 * nothing on the machine: a device that does not exist, a config naming none, and DELs
 * with nothing to move back (DEL-2, DEL-3). Moving a real device in and out is tested
 * inside throwaway namespaces by the plugin's own tests, since here the plugin runs in
 * the machine's namespace.
 */
import { check, expectError, expectSuccess } from "../judge.ts";
import { ipJson, withNetns } from "../netns.ts";
import type { TestNetns } from "../netns.ts";
import type { CaseContext, ConformanceCase } from "../types.ts";
import { pickVersion } from "./versions.ts";

const MISSING = "tscnihdmiss0";

async function linkNames(ns: TestNetns): Promise<string[]> {
  return (await ipJson<{ ifname: string }[]>(ns, ["link", "show"])).map((l) => l.ifname).sort();
}

async function config(
  ctx: CaseContext,
  extra: Record<string, unknown> = { device: MISSING },
): Promise<Record<string, unknown>> {
  return {
    cniVersion: await pickVersion(ctx, ["1.0.0", "1.1.0"]),
    name: "tscni-conformance-hd",
    type: ctx.plugin,
    ...extra,
  };
}

/** The host-device cases. */
export const HOST_DEVICE_CASES: readonly ConformanceCase[] = [
  {
    id: "hd.missing-device",
    rule: "E-1 ADD-6",
    plugin: "host-device",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const before = await linkNames(ns);
        const err = expectError(await ctx.call("ADD", { env: { CNI_NETNS: ns.path }, stdin: await config(ctx) }));
        check(
          err.msg.includes("failed to find host device"),
          `the error should say the host device was not found: ${JSON.stringify(err.msg)}`,
        );
        check(
          JSON.stringify(await linkNames(ns)) === JSON.stringify(before),
          "a failed ADD must leave the container as it was",
        );
      }),
  },
  {
    id: "hd.no-selector",
    rule: "E-1",
    plugin: "host-device",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const err = expectError(await ctx.call("ADD", { env: { CNI_NETNS: ns.path }, stdin: await config(ctx, {}) }));
        check(
          err.msg.includes('"device"'),
          `the error should name the keys that select a device: ${JSON.stringify(err.msg)}`,
        );
      }),
  },
  {
    id: "hd.del-idempotent",
    rule: "DEL-3",
    plugin: "host-device",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        for (let i = 0; i < 2; i++)
          expectSuccess(await ctx.call("DEL", { env: { CNI_NETNS: ns.path }, stdin: await config(ctx) }));
      }),
  },
  {
    id: "hd.del-no-netns",
    rule: "DEL-2",
    plugin: "host-device",
    run: async (ctx) => expectSuccess(await ctx.call("DEL", { env: { CNI_NETNS: "" }, stdin: await config(ctx) })),
  },
];
