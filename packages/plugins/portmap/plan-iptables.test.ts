import { describe, expect, test } from "bun:test";
import type { FirewallOp, IptChainState, IptRule } from "@tscni/firewall";
import { formatChainName } from "@tscni/firewall";
import { mapping, portmapConfig, V4, V6 } from "../testing/portmap-config.ts";
import type { PortmapConfig } from "./config.ts";
import { checkIptables, planIptablesAdd, planIptablesDel } from "./plan-iptables.ts";

const DN = formatChainName("net", "cid", "DN-");
const COMMENT = 'dnat name: "net" id: "cid"';
const m = mapping;
const conf = (extra: Partial<PortmapConfig> = {}): PortmapConfig =>
  portmapConfig({ portMappings: [m(8080, 80), m(8443, 443, "tcp", "198.18.0.1"), m(53, 53, "udp")], ...extra });

/** The rules the plan appends or inserts per chain, as `iptables-save` lines. */
const lines = (ops: FirewallOp[], chain: string): string[] =>
  ops.flatMap((o) =>
    "rule" in o && o.chain === chain && typeof o.rule !== "string" ? [(o.rule as IptRule).join(" ")] : [],
  );

describe("planIptablesAdd", () => {
  test("writes the reference's chains and rules in iptables-save form", () => {
    const ops = planIptablesAdd(conf(), "cid", V4);
    expect(ops.filter((o) => o.op === "ipt.chain.ensure").map((o) => ("chain" in o ? o.chain : ""))).toEqual([
      "CNI-HOSTPORT-SETMARK",
      "CNI-HOSTPORT-MASQ",
      "CNI-HOSTPORT-DNAT",
      DN,
    ]);
    expect(lines(ops, "CNI-HOSTPORT-SETMARK")).toEqual([
      "-m comment --comment CNI portfwd masquerade mark -j MARK --set-xmark 0x2000/0x2000",
    ]);
    expect(lines(ops, "CNI-HOSTPORT-MASQ")).toEqual(["-m mark --mark 0x2000/0x2000 -j MASQUERADE"]);
    expect(ops.find((o) => o.op === "ipt.rule.insert")).toEqual({
      op: "ipt.rule.insert",
      family: 4,
      table: "nat",
      chain: "POSTROUTING",
      rule: ["-m", "comment", "--comment", "CNI portfwd requiring masquerade", "-j", "CNI-HOSTPORT-MASQ"],
    });
    expect(lines(ops, "PREROUTING")).toEqual(["-m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT"]);
    expect(lines(ops, "OUTPUT")).toEqual(["-m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT"]);
    expect(lines(ops, DN)).toEqual([
      "-s 198.18.0.0/24 -p tcp -m tcp --dport 8080 -j CNI-HOSTPORT-SETMARK",
      "-s 127.0.0.1/32 -p tcp -m tcp --dport 8080 -j CNI-HOSTPORT-SETMARK",
      "-p tcp -m tcp --dport 8080 -j DNAT --to-destination 198.18.0.5:80",
      "-s 198.18.0.0/24 -d 198.18.0.1/32 -p tcp -m tcp --dport 8443 -j CNI-HOSTPORT-SETMARK",
      "-s 127.0.0.1/32 -d 198.18.0.1/32 -p tcp -m tcp --dport 8443 -j CNI-HOSTPORT-SETMARK",
      "-d 198.18.0.1/32 -p tcp -m tcp --dport 8443 -j DNAT --to-destination 198.18.0.5:443",
      "-s 198.18.0.0/24 -p udp -m udp --dport 53 -j CNI-HOSTPORT-SETMARK",
      "-s 127.0.0.1/32 -p udp -m udp --dport 53 -j CNI-HOSTPORT-SETMARK",
      "-p udp -m udp --dport 53 -j DNAT --to-destination 198.18.0.5:53",
    ]);
    expect(lines(ops, "CNI-HOSTPORT-DNAT")).toEqual([
      `-p tcp -m comment --comment ${COMMENT} -m multiport --dports 8080,8443 -j ${DN}`,
      `-p udp -m comment --comment ${COMMENT} -m multiport --dports 53 -j ${DN}`,
    ]);
  });

  test("puts at most 15 ports in one multiport rule", () => {
    const many = Array.from({ length: 17 }, (_, i) => m(9000 + i, 80));
    const entries = lines(planIptablesAdd(conf({ portMappings: many }), "cid", V4), "CNI-HOSTPORT-DNAT");
    expect(entries.map((e) => e.split("--dports ")[1]?.split(" ")[0]?.split(",").length)).toEqual([15, 2]);
  });

  test("IPv6 skips IPv4 host IPs, has no localhost rule and brackets the destination", () => {
    const ops = planIptablesAdd(
      conf({
        portMappings: [m(8080, 80, "tcp", "::"), m(8443, 443, "tcp", "198.18.0.1"), m(8444, 444, "tcp", "2001:db8::1")],
      }),
      "cid",
      V6,
    );
    expect(ops.every((o) => !("family" in o) || o.family === 6)).toBe(true);
    expect(lines(ops, DN)).toEqual([
      "-s 2001:db8::/64 -p tcp -m tcp --dport 8080 -j CNI-HOSTPORT-SETMARK",
      "-p tcp -m tcp --dport 8080 -j DNAT --to-destination [2001:db8::5]:80",
      "-s 2001:db8::/64 -d 2001:db8::1/128 -p tcp -m tcp --dport 8444 -j CNI-HOSTPORT-SETMARK",
      "-d 2001:db8::1/128 -p tcp -m tcp --dport 8444 -j DNAT --to-destination [2001:db8::5]:444",
    ]);
  });

  test("0.0.0.0 as hostIP means any destination", () => {
    expect(
      lines(planIptablesAdd(conf({ snat: false, portMappings: [m(8080, 80, "tcp", "0.0.0.0")] }), "cid", V4), DN),
    ).toEqual(["-p tcp -m tcp --dport 8080 -j DNAT --to-destination 198.18.0.5:80"]);
  });

  test("masqAll marks every source and drops the localhost rule", () => {
    expect(lines(planIptablesAdd(conf({ masqAll: true, portMappings: [m(8080, 80)] }), "cid", V4), DN)).toEqual([
      "-p tcp -m tcp --dport 8080 -j CNI-HOSTPORT-SETMARK",
      "-p tcp -m tcp --dport 8080 -j DNAT --to-destination 198.18.0.5:80",
    ]);
  });

  test("an external mark chain replaces SETMARK and MASQ, which are not created", () => {
    const ops = planIptablesAdd(
      conf({ externalSetMarkChain: "KUBE-MARK-MASQ", portMappings: [m(8080, 80)] }),
      "cid",
      V4,
    );
    expect(
      ops.some(
        (o) =>
          "chain" in o &&
          (o.chain === "CNI-HOSTPORT-SETMARK" || o.chain === "CNI-HOSTPORT-MASQ" || o.chain === "POSTROUTING"),
      ),
    ).toBe(false);
    expect(lines(ops, DN)[0]).toBe("-s 198.18.0.0/24 -p tcp -m tcp --dport 8080 -j KUBE-MARK-MASQ");
  });

  test("without snat there are no mark rules and no mark chains", () => {
    const ops = planIptablesAdd(conf({ snat: false, portMappings: [m(8080, 80)] }), "cid", V4);
    expect(lines(ops, DN)).toEqual(["-p tcp -m tcp --dport 8080 -j DNAT --to-destination 198.18.0.5:80"]);
    expect(ops.some((o) => "chain" in o && o.chain === "CNI-HOSTPORT-SETMARK")).toBe(false);
  });

  test("markMasqBit sets the mark value", () => {
    expect(lines(planIptablesAdd(conf({ markMasqBit: 0 }), "cid", V4), "CNI-HOSTPORT-MASQ")).toEqual([
      "-m mark --mark 0x1/0x1 -j MASQUERADE",
    ]);
    expect(lines(planIptablesAdd(conf({ markMasqBit: 31 }), "cid", V4), "CNI-HOSTPORT-MASQ")).toEqual([
      "-m mark --mark 0x80000000/0x80000000 -j MASQUERADE",
    ]);
  });

  test("conditions go into the entry rules, address and interface matches first as iptables-save orders them", () => {
    const entries = lines(
      planIptablesAdd(
        conf({ conditionsV4: ["-m", "set", "!", "-i", "lo", "-d", "198.18.0.9"], portMappings: [m(8080, 80)] }),
        "cid",
        V4,
      ),
      "CNI-HOSTPORT-DNAT",
    );
    expect(entries).toEqual([
      `-d 198.18.0.9/32 ! -i lo -p tcp -m comment --comment ${COMMENT} -m multiport --dports 8080 -m set -j ${DN}`,
    ]);
  });
});

describe("planIptablesDel and checkIptables", () => {
  const stateOf = (ops: FirewallOp[]): IptChainState[] => {
    const chains = new Map<string, IptRule[]>();
    for (const o of ops) {
      if (o.op === "ipt.chain.ensure") chains.set(o.chain, chains.get(o.chain) ?? []);
      if (o.op === "ipt.rule.append" || o.op === "ipt.rule.insert")
        chains.set(o.chain, [...(chains.get(o.chain) ?? []), o.rule]);
    }
    return [...chains].map(([name, rules]) => ({ name, rules }));
  };

  test("DEL removes the container's chain and the legacy SN chain in each family", () => {
    const sn = formatChainName("net", "cid", "SN-");
    expect(planIptablesDel(conf({ containerV4: undefined }), "cid", [4, 6])).toStrictEqual([
      { op: "ipt.chain.remove", family: 4, table: "nat", chain: DN },
      { op: "ipt.chain.remove", family: 4, table: "nat", chain: sn },
      { op: "ipt.chain.remove", family: 6, table: "nat", chain: DN },
      { op: "ipt.chain.remove", family: 6, table: "nat", chain: sn },
    ]);
  });

  test("DEL of a family whose address is known deletes ADD's entry rules and chain as present, the SN chain unguessed", () => {
    const c = conf({ containerV6: V6 });
    const add = planIptablesAdd(c, "cid", V6);
    const entries = add.flatMap((o) =>
      o.op === "ipt.rule.append" && o.chain === "CNI-HOSTPORT-DNAT"
        ? [{ ...o, op: "ipt.rule.delete" as const, present: true }]
        : [],
    );
    expect(entries.length).toBe(2);
    const sn = formatChainName("net", "cid", "SN-");
    expect(planIptablesDel(c, "cid", [6])).toStrictEqual([
      ...entries,
      { op: "ipt.chain.remove", family: 6, table: "nat", chain: DN, present: true },
      { op: "ipt.chain.remove", family: 6, table: "nat", chain: sn },
    ]);
  });

  test("CHECK passes on what ADD wrote and names the missing rule otherwise", () => {
    const state = stateOf(planIptablesAdd(conf(), "cid", V4));
    expect(checkIptables(conf(), "cid", V4, state)).toBeUndefined();
    expect(
      checkIptables(
        conf(),
        "cid",
        V4,
        state.filter((c) => c.name !== DN),
      ),
    ).toBe(`chain ${DN} not found in iptables table nat`);
    const dropped = state.map((c) => (c.name === DN ? { ...c, rules: c.rules.slice(1) } : c));
    expect(checkIptables(conf(), "cid", V4, dropped)).toStartWith(`rule [[-s 198.18.0.0/24`);
    const noEntry = state.map((c) => (c.name === "CNI-HOSTPORT-DNAT" ? { ...c, rules: [] } : c));
    expect(checkIptables(conf(), "cid", V4, noEntry)).toEndWith("in chain CNI-HOSTPORT-DNAT not found in table nat");
  });
});
