import { describe, expect, test } from "bun:test";
import type { FirewallOp, IptRule } from "../ops.ts";
import { FakeFirewall } from "./fake-firewall.ts";

const MASQ: IptRule = ["-d", "198.18.0.0/24", "-m", "comment", "--comment", 'name: "n" id: "c"', "-j", "ACCEPT"];
const JUMP: IptRule = ["-s", "198.18.0.5/32", "-m", "comment", "--comment", 'name: "n" id: "c"', "-j", "CNI-X"];
const ensure = (chain: string): FirewallOp => ({ op: "ipt.chain.ensure", family: 4, table: "nat", chain });
const append = (chain: string, rule: IptRule): FirewallOp => ({
  op: "ipt.rule.append",
  family: 4,
  table: "nat",
  chain,
  rule,
});

describe("FakeFirewall iptables", () => {
  test("a fresh fake dumps empty and reads the built-in chains", async () => {
    const fw = new FakeFirewall();
    expect(fw.dump()).toEqual({ iptables: {}, nftables: {} });
    expect((await fw.iptables(4, "nat"))?.map((c) => c.name)).toEqual(["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"]);
  });

  test("append is unique, insert goes first, delete removes every copy", async () => {
    const fw = new FakeFirewall();
    await fw.apply([ensure("CNI-X"), append("CNI-X", MASQ), append("CNI-X", MASQ), append("POSTROUTING", JUMP)]);
    await fw.apply([{ op: "ipt.rule.insert", family: 4, table: "nat", chain: "CNI-X", rule: ["-j", "RETURN"] }]);
    expect(fw.dump().iptables["4 nat"]?.["CNI-X"]).toEqual(["-j RETURN", MASQ.join(" ")]);
    await fw.apply([{ op: "ipt.rule.delete", family: 4, table: "nat", chain: "CNI-X", rule: MASQ }]);
    expect(fw.dump().iptables["4 nat"]?.["CNI-X"]).toEqual(["-j RETURN"]);
  });

  test("adding a rule to a missing chain fails and changes nothing", async () => {
    const fw = new FakeFirewall();
    await fw.apply([ensure("CNI-A")]);
    const before = fw.dump();
    await expect(fw.apply([ensure("CNI-B"), append("CNI-X", MASQ)])).rejects.toThrow('no chain "CNI-X"');
    expect(fw.dump()).toEqual(before);
  });

  test("a rule jumping to a missing chain fails", async () => {
    const fw = new FakeFirewall();
    await expect(fw.apply([append("POSTROUTING", JUMP)])).rejects.toThrow('missing chain "CNI-X"');
    expect(fw.dump()).toEqual({ iptables: {}, nftables: {} });
  });

  test("chain.remove deletes the references first, then the chain and its rules", async () => {
    const fw = new FakeFirewall();
    await fw.apply([
      ensure("CNI-X"),
      append("CNI-X", MASQ),
      append("POSTROUTING", JUMP),
      append("POSTROUTING", ["-j", "MASQUERADE"]),
    ]);
    await fw.apply([{ op: "ipt.chain.remove", family: 4, table: "nat", chain: "CNI-X" }]);
    expect(fw.dump().iptables["4 nat"]).toEqual({
      PREROUTING: [],
      INPUT: [],
      OUTPUT: [],
      POSTROUTING: ["-j MASQUERADE"],
    });
  });

  test("removing, flushing or deleting in missing chains is fine (DEL-3)", async () => {
    const fw = new FakeFirewall();
    await fw.apply([
      { op: "ipt.chain.remove", family: 6, table: "nat", chain: "CNI-X" },
      { op: "ipt.chain.flush", family: 6, table: "nat", chain: "CNI-X" },
      { op: "ipt.rule.delete", family: 6, table: "nat", chain: "CNI-X", rule: MASQ },
    ]);
    expect(fw.dump()).toEqual({ iptables: {}, nftables: {} });
  });

  test("a built-in chain cannot be removed", async () => {
    const fw = new FakeFirewall();
    await expect(fw.apply([{ op: "ipt.chain.remove", family: 4, table: "filter", chain: "FORWARD" }])).rejects.toThrow(
      "built-in",
    );
  });

  test("families and tables are separate", async () => {
    const fw = new FakeFirewall();
    await fw.apply([{ op: "ipt.chain.ensure", family: 6, table: "filter", chain: "CNI-FORWARD" }]);
    expect(Object.keys(fw.dump().iptables)).toEqual(["6 filter"]);
    expect((await fw.iptables(4, "filter"))?.some((c) => c.name === "CNI-FORWARD")).toBe(false);
  });
});

describe("FakeFirewall nftables", () => {
  const T = { family: "inet", table: "cni_plugins_masquerade" } as const;

  test("builds the ipmasq layout and deletes by comment or prefix", async () => {
    const fw = new FakeFirewall();
    await fw.apply([
      { op: "nft.table.ensure", ...T },
      { op: "nft.chain.ensure", ...T, chain: "masq_checks" },
      {
        op: "nft.chain.ensure",
        ...T,
        chain: "postrouting",
        base: { type: "nat", hook: "postrouting", priority: "srcnat" },
      },
      { op: "nft.rule.add", ...T, chain: "postrouting", rule: "goto masq_checks" },
      {
        op: "nft.rule.add",
        ...T,
        chain: "masq_checks",
        rule: "ip saddr 198.18.0.5 masquerade",
        comment: "aaaa-1, net",
      },
      {
        op: "nft.rule.add",
        ...T,
        chain: "masq_checks",
        rule: "ip saddr 198.18.0.6 masquerade",
        comment: "aaaa-2, net",
      },
    ]);
    const chains = await fw.nftTable("inet", "cni_plugins_masquerade");
    expect(chains?.find((c) => c.name === "masq_checks")?.rules.map((r) => r.handle)).toEqual([4, 5]);
    await fw.apply([{ op: "nft.rule.delete", ...T, chain: "masq_checks", commentPrefix: "aaaa-1" }]);
    expect(fw.dump().nftables["inet cni_plugins_masquerade"]).toEqual({
      masq_checks: ['ip saddr 198.18.0.6 masquerade comment "aaaa-2, net"'],
      postrouting: ["goto masq_checks"],
    });
  });

  test("a chain needs its table and a rule needs its chain and jump target", async () => {
    const fw = new FakeFirewall();
    await expect(fw.apply([{ op: "nft.chain.ensure", ...T, chain: "c" }])).rejects.toThrow("no such table");
    await fw.apply([{ op: "nft.table.ensure", ...T }]);
    await expect(fw.apply([{ op: "nft.rule.add", ...T, chain: "c", rule: "accept" }])).rejects.toThrow(
      'no such chain "c"',
    );
    await fw.apply([{ op: "nft.chain.ensure", ...T, chain: "c" }]);
    await expect(fw.apply([{ op: "nft.rule.add", ...T, chain: "c", rule: "jump d" }])).rejects.toThrow(
      'missing chain "d"',
    );
  });

  test("a chain still jumped to cannot be removed; flushing the jumper first allows it", async () => {
    const fw = new FakeFirewall();
    await fw.apply([
      { op: "nft.table.ensure", ...T },
      { op: "nft.chain.ensure", ...T, chain: "a" },
      { op: "nft.chain.ensure", ...T, chain: "b" },
      { op: "nft.rule.add", ...T, chain: "a", rule: "jump b" },
    ]);
    await expect(fw.apply([{ op: "nft.chain.remove", ...T, chain: "b" }])).rejects.toThrow("still jumped to");
    await fw.apply([
      { op: "nft.chain.flush", ...T, chain: "a" },
      { op: "nft.chain.remove", ...T, chain: "b" },
    ]);
    expect(fw.dump().nftables).toEqual({ "inet cni_plugins_masquerade": { a: [] } });
  });

  test("a missing table reads undefined and removing it is fine", async () => {
    const fw = new FakeFirewall();
    await fw.apply([
      { op: "nft.table.remove", family: "ip", table: "cni_hostport" },
      { op: "nft.rule.delete", family: "ip", table: "cni_hostport", chain: "hostports", comment: "c" },
    ]);
    expect(await fw.nftTable("ip", "cni_hostport")).toBeUndefined();
  });
});

describe("FakeFirewall support and failures", () => {
  test("an unsupported backend refuses its ops and reads nothing", async () => {
    const fw = new FakeFirewall({ support: { iptables: false } });
    expect(await fw.support()).toEqual({ iptables: false, nftables: true });
    await expect(fw.apply([ensure("CNI-X")])).rejects.toThrow("iptables is not usable");
    expect(await fw.iptables(4, "nat")).toBeUndefined();
    const none = new FakeFirewall({ support: { iptables: false, nftables: false } });
    await expect(none.apply([{ op: "nft.table.ensure", family: "ip", table: "t" }])).rejects.toThrow(
      "nftables is not usable",
    );
  });

  test("an injected failure rolls the whole transaction back, across backends", async () => {
    const fw = new FakeFirewall({ failWhen: (op) => (op.op === "nft.chain.ensure" ? "boom" : undefined) });
    await expect(
      fw.apply([
        ensure("CNI-X"),
        { op: "nft.table.ensure", family: "ip", table: "t" },
        { op: "nft.chain.ensure", family: "ip", table: "t", chain: "c" },
      ]),
    ).rejects.toThrow("boom");
    expect(fw.dump()).toEqual({ iptables: {}, nftables: {} });
    expect(fw.transactions.length).toBe(1);
  });
});

describe("FakeFirewall limits", () => {
  test("comments past the tools' limits are refused", async () => {
    const fw = new FakeFirewall();
    await expect(
      fw.apply([append("POSTROUTING", ["-m", "comment", "--comment", "x".repeat(256), "-j", "ACCEPT"])]),
    ).rejects.toThrow("longer than 255");
    await fw.apply([
      { op: "nft.table.ensure", family: "ip", table: "t" },
      { op: "nft.chain.ensure", family: "ip", table: "t", chain: "c" },
    ]);
    await expect(
      fw.apply([
        { op: "nft.rule.add", family: "ip", table: "t", chain: "c", rule: "accept", comment: "y".repeat(129) },
      ]),
    ).rejects.toThrow("too long");
    await expect(
      fw.apply([{ op: "nft.rule.add", family: "ip", table: "t", chain: "c", rule: "accept", comment: 'a"b' }]),
    ).rejects.toThrow("double quote");
  });
});
