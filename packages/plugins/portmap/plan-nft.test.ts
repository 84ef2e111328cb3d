import { describe, expect, test } from "bun:test";
import type { FirewallOp, NftChainState } from "@tscni/firewall";
import { mapping, portmapConfig, V4, V6 } from "../testing/portmap-config.ts";
import type { PortmapConfig } from "./config.ts";
import { checkNft, planNftAdd, planNftDel } from "./plan-nft.ts";

const m = mapping;
const conf = (extra: Partial<PortmapConfig> = {}): PortmapConfig =>
  portmapConfig({
    backend: "nftables",
    portMappings: [m(8080, 80), m(8443, 443, "tcp", "198.18.0.1"), m(53, 53, "udp", "2001:db8::1")],
    containerV6: V6,
    ...extra,
  });
const rules = (ops: FirewallOp[], chain: string): string[] =>
  ops.flatMap((o) =>
    o.op === "nft.rule.add" && o.chain === chain
      ? [`${o.rule}${o.comment === undefined ? "" : ` comment "${o.comment}"`}`]
      : [],
  );

describe("planNftAdd", () => {
  test("builds table cni_hostport with the reference's chains and rules, commented with the container ID", () => {
    const ops = planNftAdd(conf(), "cid", V4);
    expect(ops[0]).toEqual({
      op: "nft.table.ensure",
      family: "ip",
      table: "cni_hostport",
      comment: "CNI portmap plugin",
    });
    expect(ops.filter((o) => o.op === "nft.chain.ensure").map((o) => ("chain" in o ? o.chain : ""))).toEqual([
      "hostports",
      "hostip_hostports",
      "hostports_all",
      "prerouting",
      "output",
      "masquerading",
    ]);
    expect(rules(ops, "hostports_all")).toEqual(["jump hostip_hostports", "jump hostports"]);
    expect(rules(ops, "prerouting")).toEqual(["fib daddr type local jump hostports_all"]);
    expect(rules(ops, "output")).toEqual(["fib daddr type local jump hostports_all"]);
    expect(rules(ops, "hostports")).toEqual([
      'tcp dport 8080 dnat to 198.18.0.5:80 comment "cid"',
      'ip daddr 198.18.0.1 tcp dport 8443 dnat to 198.18.0.5:443 comment "cid"',
    ]);
    expect(rules(ops, "masquerading")).toEqual([
      'ip saddr 198.18.0.5 ip daddr 198.18.0.5 masquerade comment "cid"',
      'ip saddr 127.0.0.1 ip daddr 198.18.0.5 masquerade comment "cid"',
    ]);
  });

  test("drops the container's own earlier rules first, so ADD again leaves one copy", () => {
    const ops = planNftAdd(conf(), "cid", V4);
    const del = ops.findIndex((o) => o.op === "nft.rule.delete" && o.chain === "hostports" && o.comment === "cid");
    expect(del).toBeGreaterThan(-1);
    expect(del).toBeLessThan(ops.findIndex((o) => o.op === "nft.rule.add" && o.chain === "hostports"));
  });

  test("flushes prerouting, output and hostports_all before rewriting them", () => {
    const ops = planNftAdd(conf(), "cid", V4);
    for (const chain of ["hostports_all", "prerouting", "output"]) {
      const flush = ops.findIndex((o) => o.op === "nft.chain.flush" && o.chain === chain);
      const add = ops.findIndex((o) => o.op === "nft.rule.add" && o.chain === chain);
      expect(flush).toBeGreaterThan(-1);
      expect(flush).toBeLessThan(add);
    }
  });

  test("IPv6 uses the ip6 table, brackets the destination and has no localhost rule", () => {
    const ops = planNftAdd(conf({ conditionsV6: ["ip6", "saddr", "!=", "2001:db8:1::/48"] }), "cid", V6);
    expect(ops.every((o) => !("family" in o) || o.family === "ip6")).toBe(true);
    expect(rules(ops, "hostports")).toEqual([
      'tcp dport 8080 dnat to [2001:db8::5]:80 comment "cid"',
      'ip6 daddr 2001:db8::1 udp dport 53 dnat to [2001:db8::5]:53 comment "cid"',
    ]);
    expect(rules(ops, "masquerading")).toEqual([
      'ip6 saddr 2001:db8::5 ip6 daddr 2001:db8::5 masquerade comment "cid"',
    ]);
    expect(rules(ops, "prerouting")).toEqual(["ip6 saddr != 2001:db8:1::/48 fib daddr type local jump hostports_all"]);
  });

  test("masqAll masquerades any source in one rule; no snat means no masquerading chain", () => {
    expect(rules(planNftAdd(conf({ masqAll: true }), "cid", V4), "masquerading")).toEqual([
      'ip saddr 0.0.0.0/0 ip daddr 198.18.0.5 masquerade comment "cid"',
    ]);
    const ops = planNftAdd(conf({ snat: false }), "cid", V4);
    expect(
      ops.some((o) => (o.op === "nft.chain.ensure" || o.op === "nft.rule.add") && o.chain === "masquerading"),
    ).toBe(false);
  });

  test("0.0.0.0 as hostIP means any destination", () => {
    expect(rules(planNftAdd(conf({ portMappings: [m(8080, 80, "tcp", "0.0.0.0")] }), "cid", V4), "hostports")).toEqual([
      'tcp dport 8080 dnat to 198.18.0.5:80 comment "cid"',
    ]);
  });
});

describe("planNftDel and checkNft", () => {
  const chain = (name: string, ...comments: (string | undefined)[]): NftChainState => ({
    name,
    rules: comments.map((comment, handle) => ({ rule: "x", comment, handle })),
  });

  test("DEL deletes by container ID in hostports, hostip_hostports and masquerading, only where such rules are", () => {
    const v4 = [
      chain("hostports", "cid", "other"),
      chain("hostip_hostports", "cid"),
      chain("masquerading", "other"),
      chain("prerouting", "cid"),
    ];
    expect(
      planNftDel(
        "cid",
        new Map([
          ["ip", v4],
          ["ip6", []],
        ]),
      ),
    ).toEqual([
      { op: "nft.rule.delete", family: "ip", table: "cni_hostport", chain: "hostports", comment: "cid" },
      { op: "nft.rule.delete", family: "ip", table: "cni_hostport", chain: "hostip_hostports", comment: "cid" },
    ]);
    expect(planNftDel("gone", new Map([["ip", v4]]))).toEqual([]);
  });

  test("CHECK wants a rule per mapping of the family and the masquerade rules", () => {
    const ok = [chain("hostports", "cid", "cid"), chain("masquerading", "cid", "cid")];
    expect(checkNft(conf(), "cid", 4, ok)).toBeUndefined();
    expect(checkNft(conf(), "cid", 4, [chain("hostports", "cid"), chain("masquerading", "cid", "cid")])).toBe(
      'missing hostport rules in "hostports" chain',
    );
    expect(checkNft(conf(), "cid", 4, [chain("hostports", "cid", "cid"), chain("masquerading", "cid")])).toBe(
      'missing hostport rules in "masquerading" chain',
    );
    expect(
      checkNft(conf({ masqAll: true }), "cid", 4, [chain("hostports", "cid", "cid"), chain("masquerading", "cid")]),
    ).toBeUndefined();
    expect(checkNft(conf(), "cid", 4, undefined)).toContain("not found");
  });
});
