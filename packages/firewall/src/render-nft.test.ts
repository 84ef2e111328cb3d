import { describe, expect, test } from "bun:test";
import type { NftChainState } from "./firewall.ts";
import type { NftOp } from "./ops.ts";
import { renderNftScript } from "./render-nft.ts";

const T = { family: "inet", table: "cni_plugins_masquerade" } as const;
const C1 = "1d8721804f16f412-dfbd22ab690d72bc, net: podman, if: eth0, id: c1";
const masqAdd: NftOp[] = [
  { op: "nft.table.ensure", ...T, comment: "Masquerading for plugins from github.com/containernetworking/plugins" },
  {
    op: "nft.chain.ensure",
    ...T,
    chain: "masq_checks",
    comment: "Masquerade traffic from certain IPs to any (non-multicast) IP outside their subnet",
  },
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
  { op: "nft.rule.delete", ...T, chain: "masq_checks", commentPrefix: "1d8721804f16f412-dfbd22ab690d72bc" },
  {
    op: "nft.rule.add",
    ...T,
    chain: "masq_checks",
    rule: "ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade",
    comment: C1,
  },
];
const present: NftChainState[] = [
  {
    name: "masq_checks",
    rules: [{ rule: "ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade", comment: C1, handle: 6 }],
  },
  {
    name: "postrouting",
    rules: [
      { rule: "ip daddr 224.0.0.0/4 return", handle: 3 },
      { rule: "ip6 daddr ff00::/8 return", handle: 4 },
      { rule: "goto masq_checks", handle: 5 },
    ],
  },
];

describe("renderNftScript", () => {
  test("an ipMasq ADD on a fresh namespace makes table, chains and rules (H-3)", () => {
    expect(renderNftScript(masqAdd, () => undefined)).toBe(
      [
        'add table inet cni_plugins_masquerade { comment "Masquerading for plugins from github.com/containernetworking/plugins" ; }',
        'add chain inet cni_plugins_masquerade masq_checks { comment "Masquerade traffic from certain IPs to any (non-multicast) IP outside their subnet" ; }',
        "add chain inet cni_plugins_masquerade postrouting { type nat hook postrouting priority srcnat ; }",
        "add rule inet cni_plugins_masquerade postrouting ip daddr 224.0.0.0/4 return",
        "add rule inet cni_plugins_masquerade postrouting ip6 daddr ff00::/8 return",
        "add rule inet cni_plugins_masquerade postrouting goto masq_checks",
        `add rule inet cni_plugins_masquerade masq_checks ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade comment "${C1}"`,
        "",
      ].join("\n"),
    );
  });

  test("the same ADD again flushes and rewrites postrouting and replaces the stale rule by handle", () => {
    expect(renderNftScript(masqAdd, () => present)?.split("\n")).toEqual([
      "flush chain inet cni_plugins_masquerade postrouting",
      "add rule inet cni_plugins_masquerade postrouting ip daddr 224.0.0.0/4 return",
      "add rule inet cni_plugins_masquerade postrouting ip6 daddr ff00::/8 return",
      "add rule inet cni_plugins_masquerade postrouting goto masq_checks",
      "delete rule inet cni_plugins_masquerade masq_checks handle 6",
      `add rule inet cni_plugins_masquerade masq_checks ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade comment "${C1}"`,
      "",
    ]);
  });

  test("a DEL by comment deletes handles, and writes nothing when the table is gone (DEL-3)", () => {
    const del: NftOp[] = [{ op: "nft.rule.delete", ...T, chain: "masq_checks", comment: C1 }];
    expect(renderNftScript(del, () => present)).toBe("delete rule inet cni_plugins_masquerade masq_checks handle 6\n");
    expect(renderNftScript(del, () => undefined)).toBeUndefined();
  });

  test("a rule added and deleted in one script is simply not added", () => {
    const ops: NftOp[] = [
      { op: "nft.rule.add", ...T, chain: "masq_checks", rule: "accept", comment: "x" },
      { op: "nft.rule.add", ...T, chain: "masq_checks", rule: "drop", comment: "y" },
      { op: "nft.rule.delete", ...T, chain: "masq_checks", comment: "x" },
    ];
    expect(renderNftScript(ops, () => present)).toBe(
      'add rule inet cni_plugins_masquerade masq_checks drop comment "y"\n',
    );
  });

  test("removing a chain with rules flushes it first; removing missing objects writes nothing", () => {
    const ops: NftOp[] = [
      { op: "nft.chain.remove", ...T, chain: "postrouting" },
      { op: "nft.chain.remove", ...T, chain: "nope" },
      { op: "nft.table.remove", family: "ip", table: "cni_hostport" },
    ];
    expect(renderNftScript(ops, (f) => (f === "inet" ? present : undefined))).toBe(
      "flush chain inet cni_plugins_masquerade postrouting\ndelete chain inet cni_plugins_masquerade postrouting\n",
    );
  });

  test("base chains carry policy, inserts go first, tables are removed whole", () => {
    const ops: NftOp[] = [
      { op: "nft.table.ensure", family: "bridge", table: "nat" },
      {
        op: "nft.chain.ensure",
        family: "bridge",
        table: "nat",
        chain: "PREROUTING",
        base: { type: "filter", hook: "prerouting", priority: -300, policy: "accept" },
      },
      {
        op: "nft.rule.add",
        family: "bridge",
        table: "nat",
        chain: "PREROUTING",
        rule: "iifname veth1 drop",
        insert: true,
      },
      { op: "nft.table.remove", family: "ip", table: "t" },
    ];
    expect(renderNftScript(ops, (f) => (f === "ip" ? [] : undefined))?.split("\n")).toEqual([
      "add table bridge nat",
      "add chain bridge nat PREROUTING { type filter hook prerouting priority -300 ; policy accept ; }",
      "insert rule bridge nat PREROUTING iifname veth1 drop",
      "delete table ip t",
      "",
    ]);
  });

  test("a comment with a double quote is refused: nft strings cannot hold one", () => {
    expect(() =>
      renderNftScript([{ op: "nft.rule.add", ...T, chain: "c", rule: "accept", comment: 'a"b' }], () => []),
    ).toThrow("double quote");
  });
});
