/**
 * The tap plugin judged in throwaway namespaces: ADD makes CNI_IFNAME a tap (kind `tun`,
 * type tap) up in the container and DEL removes it, twice without error (DEL-3); a
 * missing bridge fails the ADD and leaves nothing (ADD-6).
 */
import { check, expectError, expectResult, expectSuccess } from "../judge.ts";
import { ipJson, withNetns } from "../netns.ts";
import type { TestNetns } from "../netns.ts";
import type { CaseContext, ConformanceCase } from "../types.ts";
import { pickVersion } from "./versions.ts";

interface IpLink {
  ifname: string;
  flags: string[];
  linkinfo?: { info_kind?: string; info_data?: { type?: string } };
}

const links = async (ns: TestNetns): Promise<IpLink[]> => ipJson<IpLink[]>(ns, ["-details", "link", "show"]);

async function config(ctx: CaseContext, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return {
    cniVersion: await pickVersion(ctx, ["1.0.0", "1.1.0"]),
    name: "tscni-conformance-tap",
    type: ctx.plugin,
    ...extra,
  };
}

/** The tap cases. */
export const TAP_CASES: readonly ConformanceCase[] = [
  {
    id: "tap.add-del",
    rule: "ADD-2 DEL-3",
    plugin: "tap",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const env = { CNI_NETNS: ns.path, CNI_IFNAME: "tap0" };
        const r = expectResult(await ctx.call("ADD", { env, stdin: await config(ctx, { mtu: 1400 }) }));
        const tap = (await links(ns)).find((l) => l.ifname === "tap0");
        check(
          tap?.linkinfo?.info_kind === "tun" && tap.linkinfo.info_data?.type === "tap",
          `tap0 should be a tap: ${JSON.stringify(tap?.linkinfo)}`,
        );
        check(tap.flags.includes("UP"), "tap0 should be up");
        check(
          JSON.stringify(r.interfaces ?? []).includes('"tap0"'),
          `the result must name tap0: ${JSON.stringify(r.interfaces)}`,
        );
        for (let i = 0; i < 2; i++)
          expectSuccess(await ctx.call("DEL", { env, stdin: await config(ctx, { mtu: 1400 }) }));
        check(!(await links(ns)).some((l) => l.ifname === "tap0"), "DEL must remove tap0");
      }),
  },
  {
    id: "tap.missing-bridge",
    rule: "E-1 ADD-6",
    plugin: "tap",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        expectError(
          await ctx.call("ADD", {
            env: { CNI_NETNS: ns.path, CNI_IFNAME: "tap0" },
            stdin: await config(ctx, { bridge: "tscnimissbr0" }),
          }),
        );
        check(!(await links(ns)).some((l) => l.ifname === "tap0"), "a failed ADD must leave no tap");
      }),
  },
  {
    id: "tap.del-no-netns",
    rule: "DEL-2",
    plugin: "tap",
    run: async (ctx) => expectSuccess(await ctx.call("DEL", { env: { CNI_NETNS: "" }, stdin: await config(ctx) })),
  },
];
