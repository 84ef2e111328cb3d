/**
 * ipMasq interop with the reference bridge and ptp (Debian's v1.1.1, /usr/lib/cni; iptables only
 * there) on the real kernel, in throwaway namespaces, with iptables-nft and
 * iptables-legacy: the reference's ADD then our DEL leaves no rule and no chain, and our
 * ADD then the reference's DEL leaves none either (H-3: the same chain name, comment and
 * rule text on both sides). Both sides share one host-local data dir.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { iptablesVariantDir, type IptablesVariant } from "@tscni/firewall/testing";
import { World, sh } from "../e2e/harness.ts";
import { runPlugin } from "../lib/run-plugin.ts";
import { announceSkip, isRoot, missingReference, OUR_BIN_DIR, REFERENCE_PLUGINS } from "./_reference.ts";

const skip =
  missingReference({ go: false }) ?? (isRoot() ? undefined : "not root (the tests create network namespaces)");
announceSkip("ipmasq.compat.test.ts", skip);
if (skip !== undefined && process.env.CI === "true" && isRoot())
  throw new Error(`ipmasq.compat.test.ts cannot run under CI: ${skip}`);

type Side = "reference" | "ours";

/** One plugin call as a runtime makes it, inside the host namespace, with `pathDir` first on PATH. */
async function call(
  side: Side,
  host: string,
  command: "ADD" | "DEL",
  netns: string,
  config: { type: string },
  pathDir: string,
): Promise<{ code: number; out: string }> {
  const dir = side === "reference" ? REFERENCE_PLUGINS : OUR_BIN_DIR;
  const { code, stdout, stderr } = await runPlugin(
    join(dir, config.type),
    { command, containerID: "masq-compat", netns, path: dir },
    config,
    { host, env: { PATH: `${pathDir}:${process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin"}` } },
  );
  return { code, out: stdout + stderr };
}

/** The nat tables of both families as the variant's save tools print them. */
async function natRules(host: string, pathDir: string): Promise<string> {
  let out = "";
  for (const tool of ["iptables-save", "ip6tables-save"]) {
    const r = await sh(host, [join(pathDir, tool), "-t", "nat"]);
    if (r.code !== 0) throw new Error(`${tool}: ${r.stderr}`);
    out += r.stdout;
  }
  return out;
}

describe.skipIf(skip !== undefined)("ipMasq rules are shared with the reference bridge and ptp v1.1.1", () => {
  let w: World;
  const variants: Record<string, { dir: string; cleanup: () => void }> = {};

  beforeAll(async () => {
    w = await World.create("compat-masq", 1);
    for (const v of ["nft", "legacy"] as const) variants[v] = iptablesVariantDir(v);
  });
  afterAll(async () => {
    for (const v of Object.values(variants)) v.cleanup();
    await w?.close();
  });

  const config = (plugin: "bridge" | "ptp") => ({
    cniVersion: "1.0.0",
    name: "compat-masq",
    type: plugin,
    ...(plugin === "bridge" ? { bridge: "tscnicm0", isGateway: true } : {}),
    ipMasq: true,
    ipam: {
      type: "host-local",
      ranges: [[{ subnet: "198.18.42.0/24" }], [{ subnet: "2001:db8:42::/64" }]],
      dataDir: join(w.dir, "ipam"),
    },
  });

  for (const [plugin, variant, adder, deleter] of (["bridge", "ptp"] as const).flatMap((p) =>
    (["nft", "legacy"] as IptablesVariant[]).flatMap((v) => [
      [p, v, "reference", "ours"] as const,
      [p, v, "ours", "reference"] as const,
    ]),
  )) {
    test(`${plugin} with iptables-${variant}: ${adder} ADD then ${deleter} DEL leaves no rule and no chain`, async () => {
      const dir = variants[variant]!.dir;
      const before = await natRules(w.host, dir);
      const add = await call(adder, w.host, "ADD", w.netns(0), config(plugin), dir);
      expect(add.out).not.toContain('"code"');
      expect(add.code).toBe(0);
      const during = await natRules(w.host, dir);
      // Both families: a chain CNI-<hash>, its two rules and a POSTROUTING jump each.
      expect(
        during.match(
          /^-A POSTROUTING -s \S+ -m comment --comment "name: \\"compat-masq\\" id: \\"masq-compat\\"" -j CNI-[0-9a-f]{24}$/gm,
        ),
      ).toHaveLength(2);
      expect(during.match(/^:CNI-[0-9a-f]{24} /gm)).toHaveLength(2);
      const del = await call(deleter, w.host, "DEL", w.netns(0), config(plugin), dir);
      expect(del.out).toBe("");
      expect(del.code).toBe(0);
      const after = await natRules(w.host, dir);
      expect(after).not.toContain("CNI-");
      expect(after.replace(/^#.*\n/gm, "")).toBe(before.replace(/^#.*\n/gm, ""));
    });
  }
});
