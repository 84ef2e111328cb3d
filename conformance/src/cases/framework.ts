/**
 * Cases every plugin must pass, whatever it does: the framework's checks and error codes
 * (SPEC.md §1.11, §4). They send invalid or refused requests only, so nothing is changed.
 */
import { check, expectError, fail } from "../judge.ts";
import { Skip } from "../types.ts";
import type { CaseContext, ConformanceCase } from "../types.ts";
import { pickVersion, versionOf } from "./versions.ts";

const NAME = "tscni-conformance";

/** A valid config for `ctx.plugin` at its highest supported version. */
async function validConfig(ctx: CaseContext): Promise<Record<string, unknown>> {
  return { cniVersion: await pickVersion(ctx), name: NAME, type: ctx.plugin };
}

/** The framework cases, run against every plugin found. */
export const FRAMEWORK_CASES: readonly ConformanceCase[] = [
  {
    id: "fw.version-reply",
    rule: "VER-1 VER-2",
    plugin: "*",
    run: async (ctx) => {
      await versionOf(ctx);
    },
  },
  {
    id: "fw.env-missing",
    rule: "ENV-2 §4:4",
    plugin: "*",
    run: async (ctx) => {
      const env = { CNI_CONTAINERID: "", CNI_NETNS: "", CNI_IFNAME: "" };
      const e = expectError(await ctx.call("ADD", { env, stdin: await validConfig(ctx) }), 4);
      for (const name of Object.keys(env))
        check(e.msg.includes(name) || (e.details ?? "").includes(name), `the error must name ${name}: ${e.msg}`);
    },
  },
  {
    id: "fw.env-missing-del",
    rule: "§1.1 ENV-2",
    plugin: "*",
    run: async (ctx) => {
      const e = expectError(await ctx.call("DEL", { env: { CNI_CONTAINERID: "" }, stdin: await validConfig(ctx) }), 4);
      check(`${e.msg} ${e.details ?? ""}`.includes("CNI_CONTAINERID"), `the error must name CNI_CONTAINERID: ${e.msg}`);
    },
  },
  {
    id: "fw.container-id",
    rule: "VAL-2 ENV-3",
    plugin: "*",
    run: async (ctx) => {
      expectError(await ctx.call("ADD", { env: { CNI_CONTAINERID: "bad/id" }, stdin: await validConfig(ctx) }), 4);
    },
  },
  {
    id: "fw.ifname",
    rule: "VAL-3",
    plugin: "*",
    run: async (ctx) => {
      for (const ifname of ["if-name-over-15b", "eth0/1", "eth 0", ".."]) {
        expectError(await ctx.call("ADD", { env: { CNI_IFNAME: ifname }, stdin: await validConfig(ctx) }), 4);
      }
    },
  },
  {
    id: "fw.invalid-json",
    rule: "§1.11:4 §4:6",
    plugin: "*",
    run: async (ctx) => {
      expectError(await ctx.call("ADD", { stdin: '{"cniVersion": "1.0.0", "name": ' }), 6);
    },
  },
  {
    id: "fw.missing-name",
    rule: "VAL-1 §4:7",
    plugin: "*",
    run: async (ctx) => {
      const { name: _, ...noName } = await validConfig(ctx);
      expectError(await ctx.call("ADD", { stdin: noName }), 7);
      expectError(await ctx.call("DEL", { stdin: { ...noName, name: "bad name" } }), 7);
    },
  },
  {
    id: "fw.incompatible-version",
    rule: "VN-4 §4:1",
    plugin: "*",
    run: async (ctx) => {
      const { supportedVersions } = await versionOf(ctx);
      const e = expectError(await ctx.call("ADD", { stdin: { ...(await validConfig(ctx)), cniVersion: "99.0.0" } }), 1);
      const text = `${e.msg} ${e.details ?? ""}`;
      for (const v of supportedVersions)
        check(text.includes(v), `the error must list the supported version "${v}": ${text}`);
    },
  },
  {
    id: "fw.unknown-command",
    rule: "§1.11:5 §4:4",
    plugin: "*",
    run: async (ctx) => {
      expectError(await ctx.call("FROBNICATE", { stdin: await validConfig(ctx) }), 4);
    },
  },
  {
    id: "fw.check-gate",
    rule: "CHK-9",
    plugin: "*",
    run: async (ctx) => {
      expectError(await ctx.call("CHECK", { stdin: { ...(await validConfig(ctx)), cniVersion: "0.3.1" } }), 1);
    },
  },
  ...(["GC", "STATUS"] as const).map(
    (cmd): ConformanceCase => ({
      id: `fw.${cmd.toLowerCase()}-gate`,
      rule: cmd === "GC" ? "GC-10" : "ST-6",
      plugin: "*",
      run: async (ctx) => {
        const { supportedVersions } = await versionOf(ctx);
        if (!supportedVersions.includes("1.1.0"))
          throw new Skip(`${cmd} exists from spec 1.1.0, which the plugin does not support`);
        const env = { CNI_CONTAINERID: "", CNI_NETNS: "", CNI_IFNAME: "", CNI_ARGS: "" };
        expectError(await ctx.call(cmd, { env, stdin: { cniVersion: "1.0.0", name: NAME, type: ctx.plugin } }), 1);
      },
    }),
  ),
  {
    id: "fw.error-on-stdout",
    rule: "P-3 E-4",
    plugin: "*",
    run: async (ctx) => {
      const out = await ctx.call("ADD", { stdin: "[" });
      expectError(out);
      if (out.exitCode !== 1) fail(`a failing plugin exits 1 like the reference, got ${out.exitCode}`);
    },
  },
];
