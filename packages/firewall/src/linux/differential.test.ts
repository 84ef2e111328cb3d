/**
 * The fake firewall against the real one: the same random transactions, generated over a
 * few chain, rule and comment names so they hit existing objects (and fail where the
 * kernel refuses), applied to both in a fresh throwaway namespace per run; after every
 * transaction both must agree on success and read back the same tables. Runs with both
 * iptables variants. The nftables side runs twice, over nfnetlink (the default) and over
 * `nft -f -` in a second namespace: both must succeed or fail alike and leave `nft -a -s
 * list table` printing the same text, handles included. Kept small (15 runs each) for a
 * 2-core machine.
 */
import { describe, expect, test } from "bun:test";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import fc from "fast-check";
import { FakeFirewall } from "../fake/fake-firewall.ts";
import type { Firewall } from "../firewall.ts";
import type { Family, FirewallOp, FirewallTx, IptRule } from "../ops.ts";
import { createLinuxFirewall } from "./linux-firewall.ts";
import { inNetns, type IptablesVariant, iptablesVariantDir } from "../testing/linux.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true")
  throw new Error("the firewall differential test must run under CI: run it as root");
if (!root) console.warn("skipping the firewall differential test: it needs root (CI runs it as root)");

// Jumps only point down POSTROUTING -> CNI-A -> CNI-B, as the kernel refuses loops.
const IPT_RULES: Record<string, (f: Family) => IptRule[]> = {
  POSTROUTING: (f) => [
    ["-j", "CNI-A"],
    ["-j", "CNI-B"],
    ["-s", f === 4 ? "198.18.0.5/32" : "2001:db8::5/128", "-j", "CNI-A"],
    ["-j", "ACCEPT"],
  ],
  "CNI-A": (f) => [
    ["-j", "CNI-B"],
    ["-d", f === 4 ? "198.18.0.0/24" : "2001:db8::/64", "-j", "ACCEPT"],
    ["-m", "comment", "--comment", 'name: "n" id: "c"', "-j", "MASQUERADE"],
  ],
  "CNI-B": () => [
    ["-p", "tcp", "-m", "tcp", "--dport", "80", "-j", "ACCEPT"],
    ["-j", "RETURN"],
  ],
};

const iptOp: fc.Arbitrary<FirewallOp> = fc
  .record({
    family: fc.constantFrom<Family>(4, 6),
    chain: fc.constantFrom("POSTROUTING", "CNI-A", "CNI-B"),
    kind: fc.nat(7),
    pick: fc.nat(3),
  })
  .map(({ family, chain, kind, pick }) => {
    const at = { family, table: "nat" as const, chain };
    const rules = (IPT_RULES[chain] as (f: Family) => IptRule[])(family);
    const rule = rules[pick % rules.length] as IptRule;
    const ops: FirewallOp[] = [
      { op: "ipt.chain.ensure", ...at },
      { op: "ipt.chain.flush", ...at },
      { op: "ipt.chain.remove", ...at },
      { op: "ipt.rule.append", ...at, rule },
      { op: "ipt.rule.append", ...at, rule },
      { op: "ipt.rule.insert", ...at, rule },
      { op: "ipt.rule.insert", ...at, rule },
      { op: "ipt.rule.delete", ...at, rule },
    ];
    return ops[kind % ops.length] as FirewallOp;
  });

const NFT_RULES: Record<string, string[]> = {
  post: ["jump a", "jump b", "ip daddr 224.0.0.0/4 return", "accept", "fib daddr type local jump b"],
  a: [
    "jump b",
    "ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade",
    "accept",
    "ip saddr 0.0.0.0/0 ip daddr 198.18.0.5 masquerade",
    "ct status dnat ct mark != 0x00000001 meta mark set meta mark | 0x00002000",
  ],
  b: ["tcp dport 80 accept", "counter return", 'iifname "lo" udp sport != 53 drop', "ip daddr != 127.0.0.0/8 goto a"],
};

const nftOp: fc.Arbitrary<FirewallOp> = fc
  .record({
    chain: fc.constantFrom("post", "a", "b"),
    kind: fc.nat(9),
    pick: fc.nat(4),
    comment: fc.constantFrom(undefined, "x", "xy", "y"),
    insert: fc.boolean(),
  })
  .map(({ chain, kind, pick, comment, insert }) => {
    const at = { family: "ip" as const, table: "t" };
    const rules = NFT_RULES[chain] as string[];
    const add: FirewallOp = {
      op: "nft.rule.add",
      ...at,
      chain,
      rule: rules[pick % rules.length] as string,
      ...(comment !== undefined && { comment }),
      ...(insert && { insert }),
    };
    const ops: FirewallOp[] = [
      { op: "nft.table.ensure", ...at },
      { op: "nft.table.remove", ...at },
      {
        op: "nft.chain.ensure",
        ...at,
        chain,
        ...(chain === "post" && { base: { type: "nat", hook: "postrouting", priority: "srcnat" } }),
      },
      { op: "nft.chain.flush", ...at, chain },
      { op: "nft.chain.remove", ...at, chain },
      add,
      add,
      add,
      { op: "nft.rule.delete", ...at, chain, comment: comment ?? "x" },
      { op: "nft.rule.delete", ...at, chain, commentPrefix: comment ?? "x" },
    ];
    return ops[kind % ops.length] as FirewallOp;
  });

/** Every run starts from these objects, so random operations mostly hit something. */
const SETUP: FirewallTx = [
  ...([4, 6] as const).flatMap((family): FirewallOp[] => [
    { op: "ipt.chain.ensure", family, table: "nat", chain: "CNI-B" },
    { op: "ipt.chain.ensure", family, table: "nat", chain: "CNI-A" },
    { op: "ipt.rule.append", family, table: "nat", chain: "CNI-A", rule: ["-j", "CNI-B"] },
  ]),
  { op: "nft.table.ensure", family: "ip", table: "t" },
  { op: "nft.chain.ensure", family: "ip", table: "t", chain: "b" },
  { op: "nft.chain.ensure", family: "ip", table: "t", chain: "a" },
  { op: "nft.rule.add", family: "ip", table: "t", chain: "a", rule: "accept", comment: "xy" },
];

/** What both must agree on: chains sorted by name (save order differs by variant), rules in order, no handles. */
async function read(fw: Firewall): Promise<unknown> {
  const byName = <T extends { name: string }>(cs: T[] | undefined): T[] | undefined =>
    cs?.slice().sort((a, b) => a.name.localeCompare(b.name));
  const nft = await fw.nftTable("ip", "t");
  return {
    v4: byName(await fw.iptables(4, "nat")),
    v6: byName(await fw.iptables(6, "nat")),
    nft: byName(nft?.map((c) => ({ name: c.name, rules: c.rules.map(({ rule, comment }) => ({ rule, comment })) }))),
  };
}

async function outcome(fw: Firewall, tx: FirewallTx): Promise<string> {
  try {
    await fw.apply(tx);
    return "ok";
  } catch (e) {
    return (e as Error).name;
  }
}

describe.skipIf(!root).each(["nft", "legacy"] as IptablesVariant[])("with iptables-%s", (variant) => {
  test("random transactions leave the fake and the kernel equal", async () => {
    const tools = iptablesVariantDir(variant);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(fc.oneof(iptOp, nftOp), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
          async (txs) =>
            withThrowawayNetns(
              2,
              async ([ns, nsCli]) => {
                const nftRuns: string[] = [];
                const real = await createLinuxFirewall({
                  netns: ns?.path ?? "",
                  path: tools.dir,
                  nftTransport: "nfnetlink",
                  // Every rule here is in the compiled subset: nfnetlink must not fall back to `nft`.
                  wrapExec: (exec) => (argv, stdin) => {
                    if (/(^|\/)nft$/.test(argv[0] ?? "")) nftRuns.push(argv.join(" "));
                    return exec(argv, stdin);
                  },
                });
                const cli = await createLinuxFirewall({
                  netns: nsCli?.path ?? "",
                  path: tools.dir,
                  nftTransport: "nft",
                });
                const fake = new FakeFirewall();
                const listed = (n: string | undefined): string => {
                  try {
                    return inNetns(n ?? "", ["nft", "-a", "-s", "list", "table", "ip", "t"]);
                  } catch {
                    return "no table";
                  }
                };
                for (const tx of [SETUP, ...txs]) {
                  const [a, b] = [await outcome(fake, tx), await outcome(real, tx)];
                  expect({ tx, outcome: b }).toEqual({ tx, outcome: a });
                  expect(await read(real)).toEqual(await read(fake));
                  expect({ tx, outcome: await outcome(cli, tx) }).toEqual({ tx, outcome: b });
                  expect(listed(ns?.name)).toBe(listed(nsCli?.name));
                }
                expect(nftRuns).toEqual([]);
              },
              "fwdiff",
            ),
        ),
        { numRuns: Number(process.env.FW_DIFF_RUNS ?? 15) },
      );
    } finally {
      tools.cleanup();
    }
  });
});
