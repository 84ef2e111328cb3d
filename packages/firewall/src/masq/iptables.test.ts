import { describe, expect, test } from "bun:test";
import { parseCIDR } from "@tscni/spec/ipnet";
import { iptMasqSetup, iptMasqTeardown } from "./iptables.ts";

const cidr = (t: string) => parseCIDR(t)!;
// sha512("mynet" + "ctr1") starts 5145007e2a8415ce07579739 (`printf mynetctr1 | sha512sum`).
const CHAIN = "CNI-5145007e2a8415ce07579739";
const COMMENT = 'name: "mynet" id: "ctr1"';
const tail = (target: string) => ["-m", "comment", "--comment", COMMENT, "-j", target];

describe("iptMasqSetup", () => {
  test("makes the reference's chain, its two rules and the POSTROUTING jump for an IPv4 address (H-3)", () => {
    expect(iptMasqSetup([cidr("198.18.0.5/24")], "mynet", "ctr1")).toEqual([
      { op: "ipt.chain.ensure", family: 4, table: "nat", chain: CHAIN, fresh: true },
      {
        op: "ipt.rule.append",
        family: 4,
        table: "nat",
        chain: CHAIN,
        rule: ["-d", "198.18.0.0/24", ...tail("ACCEPT")],
      },
      {
        op: "ipt.rule.append",
        family: 4,
        table: "nat",
        chain: CHAIN,
        rule: ["!", "-d", "224.0.0.0/4", ...tail("MASQUERADE")],
      },
      {
        op: "ipt.rule.append",
        family: 4,
        table: "nat",
        chain: "POSTROUTING",
        rule: ["-s", "198.18.0.5/32", ...tail(CHAIN)],
      },
    ]);
  });

  test("uses ip6tables, ff00::/8 and a /128 source for an IPv6 address, in iptables-save's compressed form", () => {
    const ops = iptMasqSetup([cidr("2001:db8:0:0::5/64")], "mynet", "ctr1");
    expect(ops.every((o) => o.family === 6)).toBe(true);
    expect(ops.map((o) => ("rule" in o ? o.rule.slice(0, 3) : o.op))).toEqual([
      "ipt.chain.ensure",
      ["-d", "2001:db8::/64", "-m"],
      ["!", "-d", "ff00::/8"],
      ["-s", "2001:db8::5/128", "-m"],
    ]);
  });

  test("gives each address of a dual-stack container its own rules in one shared chain name", () => {
    const ops = iptMasqSetup([cidr("198.18.0.5/24"), cidr("2001:db8::5/64")], "mynet", "ctr1");
    expect(ops).toHaveLength(8);
    expect(new Set(ops.map((o) => o.chain).filter((c) => c !== "POSTROUTING"))).toEqual(new Set([CHAIN]));
    expect(ops.map((o) => o.family)).toEqual([4, 4, 4, 4, 6, 6, 6, 6]);
  });

  test("quotes the names in the comment as Go's %q does", () => {
    const [, accept] = iptMasqSetup([cidr("198.18.0.5/24")], 'my"net', "ctr1");
    expect(accept !== undefined && "rule" in accept ? accept.rule[5] : undefined).toBe('name: "my\\"net" id: "ctr1"');
  });
});

describe("iptMasqTeardown", () => {
  test("deletes both forms of the jump, then removes the chain (the reference's TeardownIPMasq), marking what ADD made as present", () => {
    expect(iptMasqTeardown([cidr("198.18.0.5/24")], "mynet", "ctr1")).toStrictEqual([
      {
        op: "ipt.rule.delete",
        family: 4,
        table: "nat",
        chain: "POSTROUTING",
        rule: ["-s", "198.18.0.5/32", ...tail(CHAIN)],
        present: true,
      },
      {
        op: "ipt.rule.delete",
        family: 4,
        table: "nat",
        chain: "POSTROUTING",
        rule: ["-s", "198.18.0.0/24", ...tail(CHAIN)],
      },
      { op: "ipt.chain.remove", family: 4, table: "nat", chain: CHAIN, present: true },
    ]);
  });

  test("removes the chain in both families, guessing nothing, when no address is known (the link already gone)", () => {
    expect(iptMasqTeardown([], "mynet", "ctr1")).toStrictEqual([
      { op: "ipt.chain.remove", family: 4, table: "nat", chain: CHAIN },
      { op: "ipt.chain.remove", family: 6, table: "nat", chain: CHAIN },
    ]);
  });

  test("removes the chain once per family for a dual-stack container", () => {
    const removes = iptMasqTeardown(
      [cidr("198.18.0.5/24"), cidr("198.18.1.5/24"), cidr("2001:db8::5/64")],
      "mynet",
      "ctr1",
    ).filter((o) => o.op === "ipt.chain.remove");
    expect(removes.map((o) => o.family)).toEqual([4, 6]);
  });
});
