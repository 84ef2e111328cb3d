import { describe, expect, test } from "bun:test";
import type { FirewallOp, IptChainState } from "@tscni/firewall";
import { checkForward, familiesOf, planAdd, planForwardAdd, planForwardDel, planIsolation } from "./plan.ts";
import { adminJumpRule, containerRules, forwardJumpRule, type HostIp } from "./rules.ts";

const v4: HostIp = { family: 4, cidr: "198.18.0.5/32" };
const v6: HostIp = { family: 6, cidr: "2001:db8::5/128" };
/** One op per line, as a compact golden form. */
const lines = (ops: readonly FirewallOp[]): string[] =>
  ops.map(
    (o) =>
      `${o.op} ${"family" in o ? o.family : ""} ${"table" in o ? o.table : ""} ${"chain" in o ? o.chain : ""}${"rule" in o && o.rule !== undefined ? ` ${typeof o.rule === "string" ? o.rule : o.rule.join(" ")}` : ""}`,
  );

describe("planForwardAdd", () => {
  test("ensures both chains, inserts the two jumps first and appends the address rules, per family", () => {
    expect(lines(planForwardAdd("CNI-ADMIN", [v4, v6]))).toEqual([
      "ipt.chain.ensure 4 filter CNI-FORWARD",
      "ipt.chain.ensure 4 filter CNI-ADMIN",
      "ipt.rule.insert 4 filter FORWARD -m comment --comment CNI firewall plugin rules -j CNI-FORWARD",
      "ipt.rule.insert 4 filter CNI-FORWARD -m comment --comment CNI firewall plugin admin overrides -j CNI-ADMIN",
      "ipt.rule.append 4 filter CNI-FORWARD -d 198.18.0.5/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT",
      "ipt.rule.append 4 filter CNI-FORWARD -s 198.18.0.5/32 -j ACCEPT",
      "ipt.chain.ensure 6 filter CNI-FORWARD",
      "ipt.chain.ensure 6 filter CNI-ADMIN",
      "ipt.rule.insert 6 filter FORWARD -m comment --comment CNI firewall plugin rules -j CNI-FORWARD",
      "ipt.rule.insert 6 filter CNI-FORWARD -m comment --comment CNI firewall plugin admin overrides -j CNI-ADMIN",
      "ipt.rule.append 6 filter CNI-FORWARD -d 2001:db8::5/128 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT",
      "ipt.rule.append 6 filter CNI-FORWARD -s 2001:db8::5/128 -j ACCEPT",
    ]);
  });

  test("touches no family without addresses, and nothing at all without any", () => {
    expect(planForwardAdd("CNI-ADMIN", [v4]).every((o) => "family" in o && o.family === 4)).toBe(true);
    expect(planForwardAdd("CNI-ADMIN", [])).toEqual([]);
  });

  test("uses the configured admin chain name", () => {
    expect(lines(planForwardAdd("MY-ADMIN", [v4]))[1]).toBe("ipt.chain.ensure 4 filter MY-ADMIN");
  });
});

describe("planForwardDel", () => {
  test("deletes only the addresses' own rules, leaving the shared chains and jumps", () => {
    expect(lines(planForwardDel([v4]))).toEqual([
      "ipt.rule.delete 4 filter CNI-FORWARD -d 198.18.0.5/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT",
      "ipt.rule.delete 4 filter CNI-FORWARD -s 198.18.0.5/32 -j ACCEPT",
    ]);
  });

  test("marks each rule present (ADD appended it once), so the backend may delete without reading", () => {
    expect(planForwardDel([v4, v6]).every((o) => o.op === "ipt.rule.delete" && o.present === true)).toBe(true);
  });
});

describe("planIsolation", () => {
  test("is empty for the open policy", () => {
    expect(planIsolation("open", "cni0", [4, 6])).toEqual([]);
  });

  test("same-bridge makes both stages, jumps to stage 1 first in FORWARD, bridge rules first and RETURN last", () => {
    expect(lines(planIsolation("same-bridge", "cni0", [4]))).toEqual([
      "ipt.chain.ensure 4 filter CNI-ISOLATION-STAGE-1",
      "ipt.chain.ensure 4 filter CNI-ISOLATION-STAGE-2",
      "ipt.rule.insert 4 filter FORWARD -m comment --comment CNI firewall plugin rules (ingressPolicy: same-bridge|isolated) -j CNI-ISOLATION-STAGE-1",
      "ipt.rule.insert 4 filter CNI-ISOLATION-STAGE-1 -i cni0 ! -o cni0 -m comment --comment CNI firewall plugin rules (ingressPolicy: same-bridge) -j CNI-ISOLATION-STAGE-2",
      "ipt.rule.append 4 filter CNI-ISOLATION-STAGE-1 -m comment --comment CNI firewall plugin rules (ingressPolicy: same-bridge|isolated) -j RETURN",
      "ipt.rule.insert 4 filter CNI-ISOLATION-STAGE-2 -o cni0 -m comment --comment CNI firewall plugin rules (ingressPolicy: same-bridge|isolated) -j DROP",
      "ipt.rule.append 4 filter CNI-ISOLATION-STAGE-2 -m comment --comment CNI firewall plugin rules (ingressPolicy: same-bridge|isolated) -j RETURN",
    ]);
  });

  test("isolated adds the same-bridge drop, inserted after (so above) the stage-2 jump", () => {
    const ops = lines(planIsolation("isolated", "br1", [6]));
    expect(ops[3]).toContain("-i br1 ! -o br1");
    expect(ops[4]).toBe(
      "ipt.rule.insert 6 filter CNI-ISOLATION-STAGE-1 -i br1 -o br1 -m comment --comment CNI firewall plugin rules (ingressPolicy: isolated) -j DROP",
    );
  });
});

describe("planAdd", () => {
  test("with firewalld it holds only the isolation rules, which the reference writes whatever the backend", () => {
    expect(planAdd({ iptables: false, adminChain: "CNI-ADMIN", ips: [v4], policy: "open", bridge: "" })).toEqual([]);
    expect(
      planAdd({ iptables: false, adminChain: "CNI-ADMIN", ips: [v4], policy: "same-bridge", bridge: "cni0" }).length,
    ).toBe(7);
  });

  test("puts the forward rules before the isolation ones, so stage 1 ends up above CNI-FORWARD in FORWARD", () => {
    const ops = planAdd({ iptables: true, adminChain: "CNI-ADMIN", ips: [v4], policy: "same-bridge", bridge: "cni0" });
    const fwdInserts = ops
      .filter((o) => o.op === "ipt.rule.insert" && o.chain === "FORWARD")
      .map((o) => ("rule" in o ? o.rule.at(-1) : ""));
    expect(fwdInserts).toEqual(["CNI-FORWARD", "CNI-ISOLATION-STAGE-1"]);
  });

  test("familiesOf lists each family present once, IPv4 first", () => {
    expect(familiesOf([v6, v4, v4])).toEqual([4, 6]);
  });
});

describe("checkForward", () => {
  const full = (): IptChainState[] => [
    { name: "FORWARD", rules: [forwardJumpRule()] },
    { name: "CNI-FORWARD", rules: [adminJumpRule("CNI-ADMIN"), ...containerRules(v4.cidr)] },
    { name: "CNI-ADMIN", rules: [] },
  ];

  test("passes when the jumps and every address rule are there", () => {
    expect(checkForward("CNI-ADMIN", [v4], full())).toBeUndefined();
  });

  test("names the missing FORWARD jump as the reference does", () => {
    const t = full().map((c) => (c.name === "FORWARD" ? { ...c, rules: [] } : c));
    expect(checkForward("CNI-ADMIN", [v4], t)).toBe(
      "expected FORWARD rule [-m comment --comment CNI firewall plugin rules -j CNI-FORWARD] not found",
    );
  });

  test("names the missing admin jump as the reference does", () => {
    expect(checkForward("OTHER", [v4], full())).toBe(
      "expected CNI-FORWARD rule [-m comment --comment CNI firewall plugin admin overrides -j OTHER] not found",
    );
  });

  test("names a missing address rule as the reference does", () => {
    expect(checkForward("CNI-ADMIN", [{ family: 4, cidr: "198.18.0.6/32" }], full())).toBe(
      "expected rule [-d 198.18.0.6/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT] not found",
    );
  });

  test("fails on an unreadable table and passes with no addresses", () => {
    expect(checkForward("CNI-ADMIN", [v4], undefined)).toContain("expected FORWARD rule");
    expect(checkForward("CNI-ADMIN", [], undefined)).toBeUndefined();
  });
});
