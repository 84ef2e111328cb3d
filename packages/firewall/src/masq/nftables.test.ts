import { describe, expect, test } from "bun:test";
import { parseCIDR } from "@tscni/spec/ipnet";
import { nftMasqSetup, nftMasqTeardown } from "./nftables.ts";

const cidr = (t: string) => parseCIDR(t)!;
// sha512("mynet") and sha512("eth0:ctr1") start with these (`printf ... | sha512sum`).
const HASH = "d23676b4f2d9fe04-7883a6f9ce71eedb";
const COMMENT = `${HASH}, net: mynet, if: eth0, id: ctr1`;
const at = { family: "inet", table: "cni_plugins_masquerade" } as const;

describe("nftMasqSetup", () => {
  test("builds the reference's table, chains, postrouting rules and one rule per address (H-3)", () => {
    expect(nftMasqSetup([cidr("198.18.0.5/24"), cidr("2001:db8::5/64")], "mynet", "eth0", "ctr1")).toEqual([
      {
        op: "nft.table.ensure",
        ...at,
        comment: "Masquerading for plugins from github.com/containernetworking/plugins",
      },
      {
        op: "nft.chain.ensure",
        ...at,
        chain: "masq_checks",
        comment: "Masquerade traffic from certain IPs to any (non-multicast) IP outside their subnet",
      },
      {
        op: "nft.chain.ensure",
        ...at,
        chain: "postrouting",
        base: { type: "nat", hook: "postrouting", priority: "srcnat" },
      },
      { op: "nft.chain.flush", ...at, chain: "postrouting" },
      { op: "nft.rule.add", ...at, chain: "postrouting", rule: "ip daddr 224.0.0.0/4 return" },
      { op: "nft.rule.add", ...at, chain: "postrouting", rule: "ip6 daddr ff00::/8 return" },
      { op: "nft.rule.add", ...at, chain: "postrouting", rule: "goto masq_checks" },
      { op: "nft.rule.delete", ...at, chain: "masq_checks", commentPrefix: HASH },
      {
        op: "nft.rule.add",
        ...at,
        chain: "masq_checks",
        rule: "ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade",
        comment: COMMENT,
      },
      {
        op: "nft.rule.add",
        ...at,
        chain: "masq_checks",
        rule: "ip6 saddr 2001:db8::5 ip6 daddr != 2001:db8::/64 masquerade",
        comment: COMMENT,
      },
    ]);
  });

  test("replaces the instance's stale rules before adding, so a repeated ADD never duplicates", () => {
    const ops = nftMasqSetup([cidr("198.18.0.5/24")], "mynet", "eth0", "ctr1");
    const del = ops.findIndex((o) => o.op === "nft.rule.delete");
    const add = ops.findIndex((o) => o.op === "nft.rule.add" && o.chain === "masq_checks");
    expect(del).toBeGreaterThan(-1);
    expect(del).toBeLessThan(add);
  });

  test("tells interfaces of one container apart: the instance hash covers the interface name", () => {
    const a = nftMasqSetup([cidr("198.18.0.5/24")], "mynet", "eth0", "ctr1").at(-1);
    const b = nftMasqSetup([cidr("198.18.0.5/24")], "mynet", "eth1", "ctr1").at(-1);
    expect(a !== undefined && "comment" in a ? a.comment : "").not.toBe(
      b !== undefined && "comment" in b ? b.comment : "",
    );
  });
});

describe("nftMasqTeardown", () => {
  test("deletes the instance's rules by the hash prefix of their comment, whatever the addresses", () => {
    expect(nftMasqTeardown("mynet", "eth0", "ctr1")).toEqual([
      { op: "nft.rule.delete", ...at, chain: "masq_checks", commentPrefix: HASH },
    ]);
  });
});
