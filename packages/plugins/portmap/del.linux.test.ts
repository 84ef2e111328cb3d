/**
 * portmap's DEL plan on the real kernel, both iptables variants, in a throwaway
 * namespace: after ADD (dual stack, user conditions, a host IP per family, three
 * protocols) the entry rules it marks `present` are the kernel's text exactly, so DEL is
 * one `iptables-restore` and one `ip6tables-restore`, no read, and leaves nothing of the
 * container; an IPv4-only container's DEL runs no ip6tables at all. Root only; CI runs it.
 */
import { describe, expect, test } from "bun:test";
import { countingLinuxFirewall, type IptablesVariant, iptablesVariantDir } from "@tscni/firewall/testing";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { EVERY_MAPPING, mapping, portmapConfig } from "../testing/portmap-config.ts";
import type { PortmapConfig } from "./config.ts";
import { dnatChainName } from "./iptables-rules.ts";
import { planIptablesDel } from "./plan-iptables.ts";
import { containerNets, planPortmapAdd } from "./plan.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true")
  throw new Error("portmap's real-kernel DEL test must run under CI: run it as root");
if (!root) console.warn("skipping portmap's real-kernel DEL test: it needs root (CI runs it as root)");

const dual: PortmapConfig = EVERY_MAPPING;
const v4only: PortmapConfig = portmapConfig({ portMappings: [mapping(9090, 90)] });

describe.skipIf(!root).each(["nft", "legacy"] as IptablesVariant[])("portmap DEL with iptables-%s", (variant) => {
  test("is one restore per family the container has, and leaves nothing of it", async () => {
    const tools = iptablesVariantDir(variant);
    try {
      await withThrowawayNetns(
        1,
        async ([ns]) => {
          const { fw, runs } = await countingLinuxFirewall(ns?.path ?? "", tools.dir);
          const mine = async (family: 4 | 6, cid: string): Promise<string[]> =>
            ((await fw.iptables(family, "nat")) ?? []).flatMap((c) => [
              ...(c.name === dnatChainName("net", cid) ? [c.name] : []),
              ...c.rules.map((r) => r.join(" ")).filter((r) => r.includes(dnatChainName("net", cid))),
            ]);
          for (const [conf, cid] of [
            [dual, "c1"],
            [v4only, "c2"],
          ] as const)
            await fw.apply(planPortmapAdd(conf, cid));
          expect((await mine(4, "c1")).length).toBeGreaterThan(1);
          expect((await mine(6, "c1")).length).toBeGreaterThan(1);
          for (const [conf, cid, want] of [
            [dual, "c1", ["iptables-restore", "ip6tables-restore"]],
            [v4only, "c2", ["iptables-restore"]],
          ] as const) {
            runs.length = 0;
            const families = containerNets(conf).map((n) => n.ip.family);
            await fw.apply(planIptablesDel(conf, cid, families));
            expect(runs).toEqual([...want]);
            expect([...(await mine(4, cid)), ...(await mine(6, cid))]).toEqual([]);
          }
        },
        "pmdel",
      );
    } finally {
      tools.cleanup();
    }
  });
});
