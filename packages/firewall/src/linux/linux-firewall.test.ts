/**
 * The real firewall on the real kernel, inside throwaway namespaces only (never the
 * host's), with both iptables variants and nftables. Needs root; under CI=true it must run.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  canUseRealKernel,
  createThrowawayNetns,
  deleteThrowawayNetns,
  type ThrowawayNetns,
} from "@tscni/kernel/testing";
import { FakeFirewall } from "../fake/fake-firewall.ts";
import { canonicalIptRule } from "../ipt-canonical.ts";
import type { Firewall } from "../firewall.ts";
import { formatChainName, formatComment, nftMasqComment } from "../names.ts";
import type { FirewallOp, FirewallTx, IptRule } from "../ops.ts";
import { createLinuxFirewall } from "./linux-firewall.ts";
import { inNetns, type IptablesVariant, iptablesVariantDir } from "../testing/linux.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true")
  throw new Error("real-kernel firewall tests must run under CI: run them as root");
if (!root) console.warn("skipping real-kernel firewall tests: they need root (CI runs them as root)");

const CHAIN = formatChainName("podman", "c1");
const CMT = formatComment("podman", "c1");
const rule4 = (dst: string, target: string): IptRule => ["-d", dst, "-m", "comment", "--comment", CMT, "-j", target];

/** ipMasq for one container, both families, as H-3 lays it out in iptables. */
function masqAdd(): FirewallOp[] {
  const ops: FirewallOp[] = [];
  for (const [family, src, net, mcast] of [
    [4, "198.18.0.5/32", "198.18.0.0/24", "224.0.0.0/4"],
    [6, "2001:db8::5/128", "2001:db8::/64", "ff00::/8"],
  ] as const) {
    ops.push(
      { op: "ipt.chain.ensure", family, table: "nat", chain: CHAIN },
      { op: "ipt.rule.append", family, table: "nat", chain: CHAIN, rule: rule4(net, "ACCEPT") },
      {
        op: "ipt.rule.append",
        family,
        table: "nat",
        chain: CHAIN,
        rule: ["!", "-d", mcast, "-m", "comment", "--comment", CMT, "-j", "MASQUERADE"],
      },
      {
        op: "ipt.rule.append",
        family,
        table: "nat",
        chain: "POSTROUTING",
        rule: ["-s", src, "-m", "comment", "--comment", CMT, "-j", CHAIN],
      },
    );
  }
  return ops;
}
const masqDel: FirewallOp[] = [4, 6].map((family) => ({
  op: "ipt.chain.remove",
  family: family as 4 | 6,
  table: "nat",
  chain: CHAIN,
}));

const T = { family: "inet", table: "cni_plugins_masquerade" } as const;
const NCMT = nftMasqComment("podman", "eth0", "c1");
const nftAdd: FirewallOp[] = [
  { op: "nft.table.ensure", ...T, comment: "Masquerading for plugins from github.com/containernetworking/plugins" },
  { op: "nft.chain.ensure", ...T, chain: "masq_checks", comment: "Masquerade traffic from certain IPs" },
  {
    op: "nft.chain.ensure",
    ...T,
    chain: "postrouting",
    base: { type: "nat", hook: "postrouting", priority: "srcnat" },
  },
  { op: "nft.chain.flush", ...T, chain: "postrouting" },
  { op: "nft.rule.add", ...T, chain: "postrouting", rule: "ip daddr 224.0.0.0/4 return" },
  { op: "nft.rule.add", ...T, chain: "postrouting", rule: "ip6 daddr ff00::/8 return" },
  { op: "nft.rule.add", ...T, chain: "postrouting", rule: "goto masq_checks" },
  { op: "nft.rule.delete", ...T, chain: "masq_checks", commentPrefix: NCMT.slice(0, 33) },
  {
    op: "nft.rule.add",
    ...T,
    chain: "masq_checks",
    rule: "ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade",
    comment: NCMT,
  },
  {
    op: "nft.rule.add",
    ...T,
    chain: "masq_checks",
    rule: "ip6 saddr 2001:db8::5 ip6 daddr != 2001:db8::/64 masquerade",
    comment: NCMT,
  },
];

/** Everything a test reads: both nat tables and the nft table, without handles (they differ by history). */
async function snapshot(fw: Firewall): Promise<unknown> {
  const nft = await fw.nftTable("inet", T.table);
  return {
    v4: await fw.iptables(4, "nat"),
    v6: await fw.iptables(6, "nat"),
    nft: nft?.map((c) => ({ name: c.name, rules: c.rules.map(({ rule, comment }) => ({ rule, comment })) })),
  };
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the transaction to fail");
}

describe.skipIf(!root).each(["nft", "legacy"] as IptablesVariant[])(
  "the Linux firewall with iptables-%s",
  (variant) => {
    let ns: ThrowawayNetns | undefined;
    let tools: ReturnType<typeof iptablesVariantDir> | undefined;
    let fw: Firewall;
    let path = "";

    beforeAll(async () => {
      ns = createThrowawayNetns("fw");
      tools = iptablesVariantDir(variant);
      path = tools.dir;
      fw = await createLinuxFirewall({ netns: ns.path, path });
    });
    afterAll(() => {
      deleteThrowawayNetns(ns);
      tools?.cleanup();
    });

    const ipt = (...args: string[]): string => inNetns(ns?.name ?? "", [`${path}/iptables`, "-w", ...args]);

    test("both backends are supported in a fresh namespace", async () => {
      expect(await fw.support()).toEqual({ iptables: true, nftables: true });
    });

    test("a rule set written by us reads back as the fake firewall holds it", async () => {
      const tx: FirewallTx = [...masqAdd(), ...nftAdd];
      const fake = new FakeFirewall();
      await fake.apply(tx);
      await fw.apply(tx);
      expect(await snapshot(fw)).toEqual(await snapshot(fake));
      // Written through this variant only: the other one's tables stay empty.
      const other = variant === "nft" ? "legacy" : "nft";
      expect(inNetns(ns?.name ?? "", [`/usr/sbin/iptables-${other}-save`, "-t", "nat"])).not.toContain(CHAIN);
      expect(ipt("-t", "nat", "-S", "POSTROUTING")).toContain(
        `-A POSTROUTING -s 198.18.0.5/32 -m comment --comment "name: \\"podman\\" id: \\"c1\\"" -j ${CHAIN}`,
      );
    });

    test("applying the same transaction twice equals once, and the second writes nothing", async () => {
      const once = await snapshot(fw);
      await fw.apply([...masqAdd(), ...nftAdd]);
      expect(await snapshot(fw)).toEqual(once);
    });

    test("deleting twice is fine and leaves the built-in chains empty (DEL-3)", async () => {
      const del: FirewallTx = [...masqDel, { op: "nft.table.remove", ...T }];
      await fw.apply(del);
      await fw.apply(del);
      const s = (await snapshot(fw)) as { v4: unknown; nft: unknown };
      expect(s.nft).toBeUndefined();
      expect(s.v4).toEqual(["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"].map((name) => ({ name, rules: [] })));
    });

    test("rules the reference made with iptables -A are found and deleted", async () => {
      ipt("-t", "nat", "-N", CHAIN);
      ipt("-t", "nat", "-A", CHAIN, "-d", "198.18.0.0/24", "-m", "comment", "--comment", CMT, "-j", "ACCEPT");
      ipt("-t", "nat", "-A", "POSTROUTING", "-s", "198.18.0.5", "-m", "comment", "--comment", CMT, "-j", CHAIN);
      const v4 = await fw.iptables(4, "nat");
      expect(v4?.find((c) => c.name === CHAIN)?.rules).toEqual([rule4("198.18.0.0/24", "ACCEPT")]);
      expect(v4?.find((c) => c.name === "POSTROUTING")?.rules).toEqual([
        ["-s", "198.18.0.5/32", "-m", "comment", "--comment", CMT, "-j", CHAIN],
      ]);
      await fw.apply(masqDel);
      expect(ipt("-t", "nat", "-S")).not.toContain("CNI-");
    });

    test("rules given to iptables -A in any order read back as canonicalIptRule spells them", async () => {
      const raw: Record<4 | 6, string[][]> = {
        4: [
          ["-p", "tcp", "--dport", "8080", "-s", "198.18.0.5/24", "-j", "MARK", "--set-xmark", "0x2000/0x2000"],
          [
            "-m",
            "comment",
            "--comment",
            'dnat name: "n" id: "c"',
            "-m",
            "multiport",
            "-p",
            "tcp",
            "--destination-ports",
            "80,81",
            "-j",
            "ACCEPT",
          ],
          ["-d", "198.18.0.1", "-p", "udp", "--dport", "53", "-j", "DNAT", "--to-destination", "198.18.0.5:53"],
          ["-p", "tcp", "-s", "127.0.0.1", "--dport", "8080", "-j", "ACCEPT"],
          ["-s", "0.0.0.0/0", "-p", "tcp", "--dport", "80", "-j", "ACCEPT"],
          ["-m", "mark", "--mark", "0x2000/0x2000", "-j", "MASQUERADE"],
          ["!", "-d", "224.0.0.0/4", "-m", "comment", "--comment", CMT, "-j", "MASQUERADE"],
          ["-m", "addrtype", "--dst-type", "LOCAL", "-j", "RETURN"],
        ],
        6: [
          ["-p", "tcp", "--dport", "80", "-j", "DNAT", "--to-destination", "[2001:db8::5]:80"],
          ["-s", "2001:db8::5/64", "-p", "tcp", "--dport", "80", "-j", "ACCEPT"],
          ["-s", "::/0", "!", "-d", "ff00::/8", "-j", "ACCEPT"],
        ],
      };
      for (const family of [4, 6] as const) {
        const tool = `${path}/${family === 4 ? "iptables" : "ip6tables"}`;
        inNetns(ns?.name ?? "", [tool, "-w", "-t", "nat", "-N", "CNI-CANON"]);
        for (const r of raw[family]) inNetns(ns?.name ?? "", [tool, "-w", "-t", "nat", "-A", "CNI-CANON", ...r]);
        const read = (await fw.iptables(family, "nat"))?.find((c) => c.name === "CNI-CANON")?.rules;
        expect(read).toEqual(raw[family].map((r) => canonicalIptRule(family, r)));
        await fw.apply([{ op: "ipt.chain.remove", family, table: "nat", chain: "CNI-CANON" }]);
      }
    });

    test("nft rules the reference wrote with == are found by our text and deleted by comment", async () => {
      inNetns(
        ns?.name ?? "",
        ["nft", "-f", "-"],
        [
          "add table inet cni_plugins_masquerade",
          "add chain inet cni_plugins_masquerade masq_checks",
          `add rule inet cni_plugins_masquerade masq_checks ip saddr == 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade comment "${NCMT}"`,
        ].join("\n"),
      );
      const chains = await fw.nftTable("inet", T.table);
      expect(chains?.[0]?.rules.map(({ rule, comment }) => ({ rule, comment }))).toEqual([
        { rule: "ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade", comment: NCMT },
      ]);
      await fw.apply([{ op: "nft.rule.delete", ...T, chain: "masq_checks", commentPrefix: NCMT.slice(0, 33) }]);
      expect((await fw.nftTable("inet", T.table))?.[0]?.rules).toEqual([]);
      await fw.apply([{ op: "nft.table.remove", ...T }]);
    });

    test("a chain another process creates between our read and our write is not flushed", async () => {
      const shared: FirewallOp[] = [
        { op: "ipt.chain.ensure", family: 4, table: "nat", chain: "CNI-HOSTPORT-DNAT" },
        {
          op: "ipt.rule.append",
          family: 4,
          table: "nat",
          chain: "CNI-HOSTPORT-DNAT",
          rule: ["-p", "tcp", "-m", "tcp", "--dport", "8080", "-j", "ACCEPT"],
        },
      ];
      let raced = false;
      const racing = await createLinuxFirewall({
        netns: ns?.path ?? "",
        path,
        wrapExec: (exec) => (argv, stdin) => {
          if (!raced && argv[0]?.endsWith("iptables-restore")) {
            raced = true; // another container's ADD makes the shared chain first
            ipt("-t", "nat", "-N", "CNI-HOSTPORT-DNAT");
            ipt("-t", "nat", "-A", "CNI-HOSTPORT-DNAT", "-p", "udp", "-m", "udp", "--dport", "53", "-j", "ACCEPT");
          }
          return exec(argv, stdin);
        },
      });
      await racing.apply(shared);
      expect(raced).toBe(true);
      expect((await fw.iptables(4, "nat"))?.find((c) => c.name === "CNI-HOSTPORT-DNAT")?.rules).toEqual([
        ["-p", "udp", "-m", "udp", "--dport", "53", "-j", "ACCEPT"],
        ["-p", "tcp", "-m", "tcp", "--dport", "8080", "-j", "ACCEPT"],
      ]);
      await fw.apply([{ op: "ipt.chain.remove", family: 4, table: "nat", chain: "CNI-HOSTPORT-DNAT" }]);
    });

    test("an nft rule someone else deletes between our read and our write does not fail our DEL (nft transport)", async () => {
      await fw.apply(nftAdd);
      let raced = false;
      const racing = await createLinuxFirewall({
        netns: ns?.path ?? "",
        path,
        nftTransport: "nft",
        wrapExec: (exec) => (argv, stdin) => {
          if (!raced && argv.includes("-f")) {
            raced = true; // a concurrent DEL of the same container removes the rule first
            const handle = /handle (\d+)/.exec(stdin ?? "")?.[1] ?? "";
            inNetns(ns?.name ?? "", ["nft", "delete", "rule", "inet", T.table, "masq_checks", "handle", handle]);
          }
          return exec(argv, stdin);
        },
      });
      await racing.apply([{ op: "nft.rule.delete", ...T, chain: "masq_checks", commentPrefix: NCMT.slice(0, 33) }]);
      expect(raced).toBe(true);
      expect((await fw.nftTable("inet", T.table))?.find((c) => c.name === "masq_checks")?.rules).toEqual([]);
      await fw.apply([{ op: "nft.table.remove", ...T }]);
    });

    test("a failing restore leaves nothing of its table (restore atomicity)", async () => {
      const before = await snapshot(fw);
      const err = await failure(
        fw.apply([
          ...masqAdd().filter((o) => o.family === 4),
          { op: "ipt.rule.append", family: 4, table: "nat", chain: "CNI-NOPE", rule: ["-j", "ACCEPT"] },
        ]),
      );
      expect(err.name).toBe("FirewallError");
      expect(await snapshot(fw)).toEqual(before);
    });

    test("a failure in IPv6 or nftables takes back the IPv4 part already committed", async () => {
      const before = await snapshot(fw);
      const v6fails: FirewallOp = {
        op: "ipt.rule.append",
        family: 6,
        table: "nat",
        chain: "CNI-NOPE",
        rule: ["-j", "ACCEPT"],
      };
      await failure(fw.apply([...masqAdd().filter((o) => o.family === 4), v6fails]));
      expect(await snapshot(fw)).toEqual(before);
      const nftFails: FirewallOp = { op: "nft.rule.add", ...T, chain: "nope", rule: "accept" };
      const err = await failure(fw.apply([...masqAdd(), nftFails]));
      expect(err.message).toContain("nft");
      expect(await snapshot(fw)).toEqual(before);
    });
  },
);
