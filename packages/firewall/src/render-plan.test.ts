import { describe, expect, test } from "bun:test";
import { renderTx } from "./render-plan.ts";

describe("renderTx", () => {
  test("prints one command per operation for both backends", () => {
    expect(
      renderTx([
        { op: "ipt.chain.ensure", family: 4, table: "nat", chain: "CNI-X" },
        {
          op: "ipt.rule.append",
          family: 6,
          table: "nat",
          chain: "CNI-X",
          rule: ["-m", "comment", "--comment", 'name: "n" id: "c"', "-j", "MASQUERADE"],
        },
        { op: "ipt.rule.insert", family: 4, table: "nat", chain: "POSTROUTING", rule: ["-j", "CNI-X"] },
        { op: "ipt.rule.delete", family: 4, table: "nat", chain: "POSTROUTING", rule: ["-j", "CNI-X"] },
        { op: "ipt.chain.flush", family: 4, table: "nat", chain: "CNI-X" },
        { op: "ipt.chain.remove", family: 4, table: "nat", chain: "CNI-X" },
        { op: "nft.table.ensure", family: "ip", table: "cni_hostport" },
        {
          op: "nft.chain.ensure",
          family: "ip",
          table: "cni_hostport",
          chain: "prerouting",
          base: { type: "nat", hook: "prerouting", priority: "dstnat" },
        },
        { op: "nft.chain.flush", family: "ip", table: "cni_hostport", chain: "prerouting" },
        {
          op: "nft.rule.add",
          family: "ip",
          table: "cni_hostport",
          chain: "hostports",
          rule: "tcp dport 8080 dnat to 198.18.0.5:80",
          comment: "c1",
        },
        { op: "nft.rule.delete", family: "ip", table: "cni_hostport", chain: "hostports", comment: "c1" },
        { op: "nft.rule.delete", family: "inet", table: "m", chain: "masq_checks", commentPrefix: "abc-" },
        { op: "nft.chain.remove", family: "ip", table: "cni_hostport", chain: "x" },
        { op: "nft.table.remove", family: "ip", table: "cni_hostport" },
      ]),
    ).toEqual([
      "iptables -t nat -N CNI-X  # unless it exists",
      'ip6tables -t nat -A CNI-X -m comment --comment "name: \\"n\\" id: \\"c\\"" -j MASQUERADE  # unless present',
      "iptables -t nat -I POSTROUTING 1 -j CNI-X  # unless present",
      "iptables -t nat -D POSTROUTING -j CNI-X  # every copy, if present",
      "iptables -t nat -F CNI-X  # if it exists",
      "iptables -t nat -X CNI-X  # if it exists, after its rules and every jump to it",
      "nft add table ip cni_hostport",
      "nft add chain ip cni_hostport prerouting { type nat hook prerouting priority dstnat ; }",
      "nft flush chain ip cni_hostport prerouting  # if it exists",
      'nft add rule ip cni_hostport hostports tcp dport 8080 dnat to 198.18.0.5:80 comment "c1"',
      'nft delete rule ip cni_hostport hostports handle <h>  # each rule commented "c1"',
      'nft delete rule inet m masq_checks handle <h>  # each rule whose comment starts with "abc-"',
      "nft delete chain ip cni_hostport x  # if it exists",
      "nft delete table ip cni_hostport  # if it exists",
    ]);
  });
});
