/**
 * The loopback plugin (SPEC.md §8.4) judged in throwaway namespaces: what it prints and
 * what `ip -json` shows afterwards.
 */
import { check, expectError, expectResult, expectSilentSuccess, expectSuccess, sameJson } from "../judge.ts";
import { ip, ipJson, withNetns } from "../netns.ts";
import type { TestNetns } from "../netns.ts";
import type { CaseContext, ConformanceCase } from "../types.ts";
import { RICH_VERSIONS, pickVersion, versionOf } from "./versions.ts";

interface IpLink {
  ifname: string;
  flags: string[];
  address?: string;
}
interface IpAddrInfo {
  family: "inet" | "inet6";
  local: string;
  prefixlen: number;
}

/** `lo` as the kernel shows it. */
async function lo(ns: TestNetns): Promise<{ up: boolean; mac: string; addrs: string[][] }> {
  const [link] = await ipJson<IpLink[]>(ns, ["link", "show", "dev", "lo"]);
  const [addr] = await ipJson<{ addr_info: IpAddrInfo[] }[]>(ns, ["addr", "show", "dev", "lo"]);
  const info = addr?.addr_info ?? [];
  const of = (f: string) => info.filter((a) => a.family === f).map((a) => `${a.local}/${a.prefixlen}`);
  return { up: link?.flags.includes("UP") ?? false, mac: link?.address ?? "", addrs: [of("inet"), of("inet6")] };
}

function config(ctx: CaseContext, cniVersion: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { cniVersion, name: "tscni-conformance-lo", type: ctx.plugin, ...extra };
}

/** The loopback cases. */
export const LOOPBACK_CASES: readonly ConformanceCase[] = [
  {
    id: "lo.add",
    rule: "LO-2 ADD-2",
    plugin: "loopback",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        check(!(await lo(ns)).up, "a fresh namespace should have lo down");
        const v = await pickVersion(ctx, ["1.0.0", "1.1.0"]);
        const r = expectResult(await ctx.call("ADD", { env: { CNI_NETNS: ns.path }, stdin: config(ctx, v) }));
        const kernel = await lo(ns);
        check(kernel.up, "lo is not up after ADD");
        check(r.cniVersion === v, `the result must be in the config version ${v}, got ${JSON.stringify(r.cniVersion)}`);
        const ifs = r.interfaces as { name?: string; sandbox?: string; mac?: string }[] | undefined;
        check(
          ifs?.[0]?.name === "lo" && ifs[0].sandbox === ns.path,
          `interfaces must list lo in ${ns.path}: ${JSON.stringify(ifs)}`,
        );
        const ips = ((r.ips as { address?: string; interface?: number }[] | undefined) ?? []).map((x) => x.address);
        for (const family of kernel.addrs) {
          if (family[0] !== undefined)
            check(ips.includes(family[0]), `ips must include lo's address ${family[0]}: ${JSON.stringify(ips)}`);
        }
      }),
  },
  {
    id: "lo.ifname-ignored",
    rule: "LO-1",
    plugin: "loopback",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const v = await pickVersion(ctx, ["1.0.0", "1.1.0"]);
        const r = expectResult(
          await ctx.call("ADD", { env: { CNI_NETNS: ns.path, CNI_IFNAME: "eth7" }, stdin: config(ctx, v) }),
        );
        check((await lo(ns)).up, "lo is not up after ADD");
        const links = await ipJson<IpLink[]>(ns, ["link", "show"]);
        check(!links.some((l) => l.ifname === "eth7"), "ADD must not create CNI_IFNAME");
        check(
          JSON.stringify(r.interfaces ?? []).includes('"lo"'),
          `the result must name lo: ${JSON.stringify(r.interfaces)}`,
        );
      }),
  },
  {
    id: "lo.versions",
    rule: "ADD-2",
    plugin: "loopback",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        // 0.1.0/0.2.0 results are left out: the reference prints 1.x fields there (LO-2 quirk).
        const { supportedVersions } = await versionOf(ctx);
        for (const v of supportedVersions.filter((x) => RICH_VERSIONS.includes(x))) {
          const r = expectResult(await ctx.call("ADD", { env: { CNI_NETNS: ns.path }, stdin: config(ctx, v) }));
          check(r.cniVersion === v, `config ${v} gave a result in ${JSON.stringify(r.cniVersion)}`);
        }
      }),
  },
  {
    id: "lo.chained",
    rule: "LO-2 ADD-3",
    plugin: "loopback",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const v = await pickVersion(ctx, ["1.0.0", "1.1.0"]);
        const prevResult = {
          cniVersion: v,
          interfaces: [{ name: "eth0", mac: "c2:11:22:33:44:55", sandbox: ns.path }],
          ips: [{ address: "198.18.7.2/24", gateway: "198.18.7.1", interface: 0 }],
          routes: [{ dst: "0.0.0.0/0", gw: "198.18.7.1" }],
        };
        const r = expectResult(
          await ctx.call("ADD", { env: { CNI_NETNS: ns.path }, stdin: config(ctx, v, { prevResult }) }),
        );
        for (const k of ["interfaces", "ips", "routes"] as const) {
          check(sameJson(r[k], prevResult[k]), `${k} must pass through unchanged: ${JSON.stringify(r[k])}`);
        }
      }),
  },
  {
    id: "lo.non-loopback-address",
    rule: "LO-2",
    plugin: "loopback",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        await ip(["-n", ns.name, "addr", "add", "198.18.7.9/24", "dev", "lo"]);
        const v = await pickVersion(ctx);
        const e = expectError(await ctx.call("ADD", { env: { CNI_NETNS: ns.path }, stdin: config(ctx, v) }));
        check(`${e.msg} ${e.details ?? ""}`.includes("198.18.7.9"), `the error must name the address: ${e.msg}`);
      }),
  },
  {
    id: "lo.check",
    rule: "LO-4 CHK-8",
    plugin: "loopback",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const v = await pickVersion(ctx, ["0.4.0", "1.0.0", "1.1.0"]);
        const env = { CNI_NETNS: ns.path };
        const prevResult = expectResult(await ctx.call("ADD", { env, stdin: config(ctx, v) }));
        expectSilentSuccess(await ctx.call("CHECK", { env, stdin: config(ctx, v, { prevResult }) }));
        await ip(["-n", ns.name, "link", "set", "lo", "down"]);
        expectError(await ctx.call("CHECK", { env, stdin: config(ctx, v, { prevResult }) }));
      }),
  },
  {
    id: "lo.del",
    rule: "LO-3 DEL-3",
    plugin: "loopback",
    needsRoot: true,
    run: (ctx) =>
      withNetns(async (ns) => {
        const v = await pickVersion(ctx);
        const env = { CNI_NETNS: ns.path };
        expectSuccess(await ctx.call("ADD", { env, stdin: config(ctx, v) }));
        expectSilentSuccess(await ctx.call("DEL", { env, stdin: config(ctx, v) }));
        check(!(await lo(ns)).up, "lo is still up after DEL");
        expectSilentSuccess(await ctx.call("DEL", { env, stdin: config(ctx, v) }));
      }),
  },
  {
    id: "lo.del-netns-gone",
    rule: "LO-3 DEL-2",
    plugin: "loopback",
    run: async (ctx) => {
      const v = await pickVersion(ctx);
      expectSilentSuccess(
        await ctx.call("DEL", { env: { CNI_NETNS: "/var/run/netns/tscni-conformance-gone" }, stdin: config(ctx, v) }),
      );
      expectSilentSuccess(await ctx.call("DEL", { env: { CNI_NETNS: "" }, stdin: config(ctx, v) }));
    },
  },
  {
    id: "lo.status",
    rule: "LO-5 ST-7",
    plugin: "loopback",
    run: async (ctx) => {
      const v = await pickVersion(ctx, ["1.1.0"]);
      expectSilentSuccess(
        await ctx.call("STATUS", {
          env: { CNI_CONTAINERID: "", CNI_NETNS: "", CNI_IFNAME: "" },
          stdin: config(ctx, v),
        }),
      );
    },
  },
];
