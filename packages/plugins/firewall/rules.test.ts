import { describe, expect, test } from "bun:test";
import { canonicalIptRule } from "@tscni/firewall";
import type { Result100 } from "@tscni/spec";
import { adminJumpRule, containerRules, forwardJumpRule, goRule, hostIps, isolationRules } from "./rules.ts";

const result = (...addresses: string[]): Result100 => ({
  cniVersion: "1.1.0",
  ips: addresses.map((address) => ({ address })),
});
const saved = (rule: readonly string[]): string => rule.map((t) => (t.includes(" ") ? `"${t}"` : t)).join(" ");

describe("hostIps", () => {
  test("hostIps turns result addresses into the reference's ipString host CIDRs with their family", () => {
    expect(hostIps(result("198.18.0.5/24", "2001:DB8:0::5/64"))).toEqual([
      { family: 4, cidr: "198.18.0.5/32" },
      { family: 6, cidr: "2001:db8::5/128" },
    ]);
  });

  test("hostIps reads an IPv4-mapped address as IPv4, as Go's To4 does", () => {
    expect(hostIps(result("::ffff:198.18.0.9/120"))).toEqual([{ family: 4, cidr: "198.18.0.9/32" }]);
  });

  test("hostIps of no result is empty", () => {
    expect(hostIps(undefined)).toEqual([]);
  });
});

describe("the firewall plugin's iptables rules, as iptables-save prints the reference's", () => {
  test("a container address gets an established/related accept in and an accept for all it sends", () => {
    expect(containerRules("198.18.0.5/32").map(saved)).toEqual([
      "-d 198.18.0.5/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT",
      "-s 198.18.0.5/32 -j ACCEPT",
    ]);
  });

  test("FORWARD jumps to CNI-FORWARD and CNI-FORWARD to the admin chain, each with the reference's comment", () => {
    expect(saved(forwardJumpRule())).toBe('-m comment --comment "CNI firewall plugin rules" -j CNI-FORWARD');
    expect(saved(adminJumpRule("CNI-ADMIN"))).toBe(
      '-m comment --comment "CNI firewall plugin admin overrides" -j CNI-ADMIN',
    );
    expect(saved(adminJumpRule("MY-ADMIN"))).toBe(
      '-m comment --comment "CNI firewall plugin admin overrides" -j MY-ADMIN',
    );
  });

  test("same-bridge isolation sends traffic leaving the bridge to stage 2, which drops what enters another isolated bridge", () => {
    const r = isolationRules("cni0", false);
    expect(saved(r.forwardJump)).toBe(
      '-m comment --comment "CNI firewall plugin rules (ingressPolicy: same-bridge|isolated)" -j CNI-ISOLATION-STAGE-1',
    );
    expect(r.stage1Insert.map(saved)).toEqual([
      '-i cni0 ! -o cni0 -m comment --comment "CNI firewall plugin rules (ingressPolicy: same-bridge)" -j CNI-ISOLATION-STAGE-2',
    ]);
    expect(saved(r.stage1Return)).toBe(
      '-m comment --comment "CNI firewall plugin rules (ingressPolicy: same-bridge|isolated)" -j RETURN',
    );
    expect(saved(r.stage2Drop)).toBe(
      '-o cni0 -m comment --comment "CNI firewall plugin rules (ingressPolicy: same-bridge|isolated)" -j DROP',
    );
    expect(saved(r.stage2Return)).toBe(saved(r.stage1Return));
  });

  test("isolated also drops traffic between two ports of the same bridge, with its own policy comment", () => {
    expect(isolationRules("br1", true).stage1Insert.map(saved)).toEqual([
      '-i br1 ! -o br1 -m comment --comment "CNI firewall plugin rules (ingressPolicy: isolated)" -j CNI-ISOLATION-STAGE-2',
      '-i br1 -o br1 -m comment --comment "CNI firewall plugin rules (ingressPolicy: isolated)" -j DROP',
    ]);
  });

  test("goRule prints a rule as Go's %v of a []string", () => {
    expect(goRule(forwardJumpRule())).toBe("[-m comment --comment CNI firewall plugin rules -j CNI-FORWARD]");
  });

  test("every rule is already in iptables-save's canonical order and spelling, so reads compare equal", () => {
    const all = [
      ...containerRules("198.18.0.5/32"),
      ...containerRules("2001:db8::5/128"),
      forwardJumpRule(),
      adminJumpRule("CNI-ADMIN"),
      ...((r) => [r.forwardJump, ...r.stage1Insert, r.stage1Return, r.stage2Drop, r.stage2Return])(
        isolationRules("cni0", true),
      ),
    ];
    for (const rule of all) {
      const family = rule.some((t) => t.includes(":") && !t.includes(" ")) ? 6 : 4;
      expect(canonicalIptRule(family, rule)).toEqual([...rule]);
    }
  });
});
