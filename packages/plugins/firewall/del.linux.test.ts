/**
 * The firewall plugin's DEL plan on the real kernel, both iptables variants, in a
 * throwaway namespace: after ADD of two dual-stack containers, one container's DEL is one
 * `iptables-restore` and one `ip6tables-restore` (its rules are marked `present`), no
 * read, and leaves the other's rules and the shared chains; a DEL again falls back to the
 * read and changes nothing. Root only; CI runs it.
 */
import { describe, expect, test } from "bun:test";
import { countingLinuxFirewall, type IptablesVariant, iptablesVariantDir } from "@tscni/firewall/testing";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { planForwardAdd, planForwardDel } from "./plan.ts";
import type { HostIp } from "./rules.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true")
  throw new Error("the firewall plugin's real-kernel DEL test must run under CI: run it as root");
if (!root) console.warn("skipping the firewall plugin's real-kernel DEL test: it needs root (CI runs it as root)");

const ips = (i: number): HostIp[] => [
  { family: 4, cidr: `198.18.0.${i}/32` },
  { family: 6, cidr: `2001:db8::${i}/128` },
];

describe.skipIf(!root).each(["nft", "legacy"] as IptablesVariant[])(
  "firewall plugin DEL with iptables-%s",
  (variant) => {
    test("is one restore per family, no read, and leaves the other container and the shared chains", async () => {
      const tools = iptablesVariantDir(variant);
      try {
        await withThrowawayNetns(
          1,
          async ([ns]) => {
            const { fw, runs } = await countingLinuxFirewall(ns?.path ?? "", tools.dir);
            const rules = async (): Promise<string[]> =>
              (await Promise.all(([4, 6] as const).map((f) => fw.iptables(f, "filter"))))
                .flatMap((t) => t ?? [])
                .filter((c) => c.name === "CNI-FORWARD")
                .flatMap((c) => c.rules.map((r) => r.join(" ")));
            await fw.apply(planForwardAdd("CNI-ADMIN", ips(1)));
            await fw.apply(planForwardAdd("CNI-ADMIN", ips(2)));
            const both = await rules();
            runs.length = 0;
            await fw.apply(planForwardDel(ips(1)));
            expect(runs).toEqual(["iptables-restore", "ip6tables-restore"]);
            const left = await rules();
            expect(left).toEqual(both.filter((r) => !r.includes("198.18.0.1/32") && !r.includes("2001:db8::1/128")));
            expect(left.some((r) => r.includes("198.18.0.2/32"))).toBe(true);
            runs.length = 0;
            await fw.apply(planForwardDel(ips(1)));
            expect(runs).toEqual(["iptables-restore", "iptables-save", "ip6tables-restore", "ip6tables-save"]);
            expect(await rules()).toEqual(left);
          },
          "fwpdel",
        );
      } finally {
        tools.cleanup();
      }
    });
  },
);
