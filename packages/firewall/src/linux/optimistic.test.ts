/**
 * The read-free DEL (render-ipt-optimistic.ts) on the real kernel, both iptables variants,
 * in a throwaway namespace: DEL after ADD is one `iptables-restore` and no read (and no
 * ip6tables at all for an IPv4-only attachment); DEL after someone removed a rule (chain
 * left), the whole chain, or added a jump we did not know of, and DEL again, fall back to
 * the read and still end where the fake firewall (which ignores `present`) ends: nothing
 * of the attachment left.
 */
import { describe, expect, test } from "bun:test";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { parseCIDR } from "@tscni/spec/ipnet";
import { FakeFirewall } from "../fake/fake-firewall.ts";
import type { Firewall } from "../firewall.ts";
import { iptMasqLegacyJump, iptMasqSetup, iptMasqTeardown } from "../masq/iptables.ts";
import { formatChainName, formatComment } from "../names.ts";
import type { FirewallOp, IptRule } from "../ops.ts";
import { countingLinuxFirewall, inNetns, type IptablesVariant, iptablesVariantDir } from "../testing/linux.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true")
  throw new Error("the read-free iptables DEL test must run under CI: run it as root");
if (!root) console.warn("skipping the read-free iptables DEL test: it needs root (CI runs it as root)");

const at = { family: 4, table: "nat" } as const;
const JUMP: IptRule = ["-m", "addrtype", "--dst-type", "LOCAL", "-j", "CNI-HOSTPORT-DNAT"];
const ip = (i: number) => parseCIDR(`198.18.0.${i}/24`)!;
const entry = (i: number): IptRule => ["-p", "tcp", "-m", "comment", "--comment", `c${i}`, "-j", `CNI-DN-${i}`];
const fwd = (i: number): IptRule => ["-s", `198.18.0.${i}/32`, "-j", "ACCEPT"];

/** One attachment's ADD: ipMasq, portmap's shape (as fresh.test.ts) and the firewall plugin's shape. */
function add(i: number): FirewallOp[] {
  const own = `CNI-DN-${i}`;
  return [
    ...iptMasqSetup([ip(i)], "net", `c${i}`),
    { op: "ipt.chain.ensure", ...at, chain: "CNI-HOSTPORT-DNAT" },
    { op: "ipt.rule.append", ...at, chain: "PREROUTING", rule: JUMP },
    { op: "ipt.chain.ensure", ...at, chain: own, fresh: true },
    {
      op: "ipt.rule.append",
      ...at,
      chain: own,
      rule: ["-p", "tcp", "-m", "tcp", "--dport", `${8000 + i}`, "-j", "DNAT", "--to-destination", `198.18.0.${i}:80`],
    },
    { op: "ipt.rule.append", ...at, chain: "CNI-HOSTPORT-DNAT", rule: entry(i) },
    { op: "ipt.chain.ensure", family: 4, table: "filter", chain: "CNI-FORWARD" },
    { op: "ipt.rule.append", family: 4, table: "filter", chain: "CNI-FORWARD", rule: fwd(i) },
  ];
}

/** Its DEL, as the three plans build it (portmap: plan-iptables.ts planIptablesDel). */
function del(i: number): FirewallOp[] {
  return [
    ...iptMasqTeardown([ip(i)], "net", `c${i}`),
    { op: "ipt.rule.delete", ...at, chain: "CNI-HOSTPORT-DNAT", rule: entry(i), present: true },
    { op: "ipt.chain.remove", ...at, chain: `CNI-DN-${i}`, present: true },
    { op: "ipt.chain.remove", ...at, chain: `CNI-SN-${i}` },
    { op: "ipt.rule.delete", family: 4, table: "filter", chain: "CNI-FORWARD", rule: fwd(i), present: true },
  ];
}

async function tables(fw: Firewall): Promise<unknown> {
  const sorted = async (t: "nat" | "filter") =>
    (await fw.iptables(4, t))?.slice().sort((a, b) => a.name.localeCompare(b.name));
  return { nat: await sorted("nat"), filter: await sorted("filter") };
}

describe.skipIf(!root).each(["nft", "legacy"] as IptablesVariant[])("the read-free DEL with iptables-%s", (variant) => {
  test("DEL after ADD is one restore, and every partial removal falls back to the read and leaves nothing", async () => {
    const tools = iptablesVariantDir(variant);
    try {
      await withThrowawayNetns(
        1,
        async ([ns]) => {
          const name = ns?.name ?? "";
          const ipt = (...argv: string[]) => inNetns(name, [`${tools.dir}/iptables`, ...argv]);
          const { fw, runs } = await countingLinuxFirewall(ns?.path ?? "", tools.dir);
          const fake = new FakeFirewall();
          const step = async (tx: FirewallOp[]): Promise<string[]> => {
            runs.length = 0;
            await fw.apply(tx);
            await fake.apply(tx);
            const ran = [...runs];
            expect(await tables(fw)).toEqual(await tables(fake));
            return ran;
          };
          for (const i of [1, 2, 3, 4, 5, 6]) await step(add(i));
          // The common case: one restore, no read, no ip6tables (the attachment has no IPv6 address).
          expect(await step(del(1))).toEqual(["iptables-restore"]);
          // DEL again: every guess is wrong, so read; nothing is there, so no second write.
          expect(await step(del(1))).toEqual(["iptables-restore", "iptables-save", "iptables-save"]);
          // A rule gone, its chain left: the guess fails whole, the read path removes the rest.
          const masqChain = formatChainName("net", "c2");
          ipt(
            "-t",
            "nat",
            "-D",
            "POSTROUTING",
            "-s",
            "198.18.0.2/32",
            "-m",
            "comment",
            "--comment",
            formatComment("net", "c2"),
            "-j",
            masqChain,
          );
          await fake.apply([iptMasqTeardown([ip(2)], "net", "c2")[0] as FirewallOp]);
          expect(await step(del(2))).toEqual([
            "iptables-restore",
            "iptables-save",
            "iptables-save",
            "iptables-restore",
          ]);
          // A whole chain gone (its jumps first, as iptables demands).
          ipt("-t", "nat", "-D", "CNI-HOSTPORT-DNAT", ...entry(3));
          ipt("-t", "nat", "-F", "CNI-DN-3");
          ipt("-t", "nat", "-X", "CNI-DN-3");
          await fake.apply([
            { op: "ipt.rule.delete", ...at, chain: "CNI-HOSTPORT-DNAT", rule: entry(3) },
            { op: "ipt.chain.remove", ...at, chain: "CNI-DN-3" },
          ]);
          expect(await step(del(3))).toEqual([
            "iptables-restore",
            "iptables-save",
            "iptables-save",
            "iptables-restore",
          ]);
          // A jump the DEL does not guess (the older ipMasq form) fails the chain's -X: read, and both go.
          const legacy = iptMasqLegacyJump(ip(4), formatChainName("net", "c4"), formatComment("net", "c4"));
          ipt("-t", "nat", "-A", "POSTROUTING", ...legacy);
          await fake.apply([{ op: "ipt.rule.append", ...at, chain: "POSTROUTING", rule: legacy }]);
          expect(await step(del(4))).toEqual([
            "iptables-restore",
            "iptables-save",
            "iptables-save",
            "iptables-restore",
          ]);
          // The old portmap chain left by an older release: its -N fails, read, removed.
          ipt("-t", "nat", "-N", "CNI-SN-5");
          await fake.apply([{ op: "ipt.chain.ensure", ...at, chain: "CNI-SN-5" }]);
          expect(await step(del(5))).toEqual([
            "iptables-restore",
            "iptables-save",
            "iptables-save",
            "iptables-restore",
          ]);
          // What stays is the other attachment's rules and the shared chains only.
          await step(del(6));
          const nat = ((await fw.iptables(4, "nat")) ?? []).flatMap((c) => [
            c.name,
            ...c.rules.map((r) => r.join(" ")),
          ]);
          expect(nat.filter((l) => /CNI-DN-|CNI-SN-|c[1-6]"|198\.18/.test(l))).toEqual([]);
        },
        "fwdel",
      );
    } finally {
      tools.cleanup();
    }
  });
});
