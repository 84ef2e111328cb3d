/**
 * The read-free ADD (render-ipt-fresh.ts) on the real kernel, both iptables variants, in a
 * throwaway namespace: a second container's ADD is one `iptables-restore` and no read;
 * the first ADD on a node, an ADD again, and an ADD after someone deleted a shared rule
 * fall back to the read and still end where the fake firewall (which ignores `fresh`)
 * ends; a later failing family takes the read-free write back.
 */
import { describe, expect, test } from "bun:test";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { FakeFirewall } from "../fake/fake-firewall.ts";
import type { Firewall } from "../firewall.ts";
import type { FirewallOp, IptRule } from "../ops.ts";
import { countingLinuxFirewall, inNetns, type IptablesVariant, iptablesVariantDir } from "../testing/linux.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true")
  throw new Error("the read-free iptables ADD test must run under CI: run it as root");
if (!root) console.warn("skipping the read-free iptables ADD test: it needs root (CI runs it as root)");

const at = { family: 4, table: "nat" } as const;
const JUMP: IptRule = ["-m", "addrtype", "--dst-type", "LOCAL", "-j", "CNI-HOSTPORT-DNAT"];

/** portmap's ADD of container `i` (plan-iptables.ts's shape). */
function add(i: number): FirewallOp[] {
  const own = `CNI-DN-${i}`;
  return [
    { op: "ipt.chain.ensure", ...at, chain: "CNI-HOSTPORT-DNAT" },
    { op: "ipt.rule.append", ...at, chain: "PREROUTING", rule: JUMP },
    { op: "ipt.rule.append", ...at, chain: "OUTPUT", rule: JUMP },
    { op: "ipt.chain.ensure", ...at, chain: own, fresh: true },
    {
      op: "ipt.rule.append",
      ...at,
      chain: own,
      rule: [
        "-p",
        "tcp",
        "-m",
        "tcp",
        "--dport",
        String(8000 + i),
        "-j",
        "DNAT",
        "--to-destination",
        `198.18.0.${i}:80`,
      ],
    },
    {
      op: "ipt.rule.append",
      ...at,
      chain: "CNI-HOSTPORT-DNAT",
      rule: ["-p", "tcp", "-m", "comment", "--comment", `c${i}`, "-j", own],
    },
  ];
}

async function nat(fw: Firewall): Promise<unknown> {
  return (await fw.iptables(4, "nat"))?.slice().sort((a, b) => a.name.localeCompare(b.name));
}

describe.skipIf(!root).each(["nft", "legacy"] as IptablesVariant[])("the read-free ADD with iptables-%s", (variant) => {
  test("reads nothing when the container's chain is new, and falls back to a read whenever that is not enough", async () => {
    const tools = iptablesVariantDir(variant);
    try {
      await withThrowawayNetns(
        1,
        async ([ns]) => {
          const { fw, runs } = await countingLinuxFirewall(ns?.path ?? "", tools.dir);
          const fake = new FakeFirewall();
          const step = async (tx: FirewallOp[]): Promise<string[]> => {
            runs.length = 0;
            await fw.apply(tx);
            await fake.apply(tx);
            const ran = [...runs];
            expect(await nat(fw)).toEqual(await nat(fake));
            return ran;
          };
          // The first ADD on the node: the shared jump is missing, the checked restore fails, then read and write.
          expect(await step(add(1))).toEqual(["iptables-restore", "iptables-save", "iptables-restore"]);
          // Every later container: one restore, no read.
          expect(await step(add(2))).toEqual(["iptables-restore"]);
          // ADD again: the chain exists, so read; nothing is missing, so no second write.
          expect(await step(add(2))).toEqual(["iptables-restore", "iptables-save"]);
          // Someone removed a shared jump: the check fails, the read path puts it back.
          inNetns(ns?.name ?? "", [`${tools.dir}/iptables`, "-t", "nat", "-D", "OUTPUT", ...JUMP]);
          await fake.apply([{ op: "ipt.rule.delete", ...at, chain: "OUTPUT", rule: JUMP }]);
          expect(await step(add(3))).toEqual(["iptables-restore", "iptables-save", "iptables-restore"]);
          // A later family fails: the read-free IPv4 write is taken back.
          const before = await nat(fw);
          const v6fails: FirewallOp = {
            op: "ipt.rule.append",
            family: 6,
            table: "nat",
            chain: "CNI-NOPE",
            rule: ["-j", "ACCEPT"],
          };
          await expect(fw.apply([...add(4), v6fails])).rejects.toThrow();
          expect(await nat(fw)).toEqual(before);
        },
        "fwfresh",
      );
    } finally {
      tools.cleanup();
    }
  });
});
