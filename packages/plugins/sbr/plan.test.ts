import { describe, expect, test } from "bun:test";
import type { RouteInfo, RuleInfo } from "@tscni/kernel";
import { parseAddr } from "@tscni/spec/ipnet";
import { nextFreeTable, planRoutes, planWithTable } from "./plan.ts";

const NS = "/var/run/netns/c";
const DEFAULTS: RuleInfo[] = [
  { family: 4, priority: 0, table: 255 },
  { family: 4, priority: 32766, table: 254 },
  { family: 4, priority: 32767, table: 253 },
];
const ROUTES: RouteInfo[] = [
  { dst: "0.0.0.0/0", family: 4, gw: "198.18.0.1", dev: "eth0", scope: "global", protocol: "boot" },
  { dst: "198.18.0.0/24", family: 4, dev: "eth0", src: "198.18.0.5", scope: "link", protocol: "kernel" },
  { dst: "198.18.9.0/24", family: 4, gw: "198.18.1.1", dev: "eth0", scope: "global", protocol: "boot" },
  { dst: "2001:db8::/64", family: 6, dev: "eth0", scope: "global", metric: 256, protocol: "kernel" },
];
const V4 = { address: "198.18.0.5/24", gateway: "198.18.0.1" };
const V6 = { address: "2001:db8::5/64", gateway: "2001:db8::1" };

describe("sbr's table numbering (the reference's getNextTableID)", () => {
  test("the first table from 100 that no rule names", () => {
    expect(nextFreeTable(DEFAULTS, 100)).toBe(100);
    expect(
      nextFreeTable(
        [
          ...DEFAULTS,
          { family: 6, priority: 5, table: 100 },
          { family: 4, priority: 6, table: 101 },
          { family: 4, priority: 7, table: 103 },
        ],
        100,
      ),
    ).toBe(102);
  });

  test("each further address takes the next free table, skipping ones rules name", () => {
    const rules = [...DEFAULTS, { family: 4 as const, priority: 9, table: 101 }];
    const plan = planRoutes(NS, "eth0", [V4, V6], { rules, linkRoutes: ROUTES }, {}, false);
    expect(plan.tables).toEqual([100, 102]);
  });
});

describe("sbr's ADD plan (doRoutes)", () => {
  const plan = planRoutes(NS, "eth0", [V4, V6], { rules: DEFAULTS, linkRoutes: ROUTES }, {}, false);
  const lines = plan.steps.map((s) => `${s.op.op} ${JSON.stringify({ ...s.op, op: undefined, ns: undefined })}`);

  test("per address: a rule on the address alone, a default route via its gateway, then the routes that belong to it", () => {
    expect(lines.slice(0, 6)).toEqual([
      `rule.add {"from":"198.18.0.5/32","table":100}`,
      `route.add {"dst":"0.0.0.0/0","gw":"198.18.0.1","dev":"eth0","table":100}`,
      `route.add {"dst":"0.0.0.0/0","gw":"198.18.0.1","dev":"eth0","scope":"global","table":100,"replace":true}`,
      `route.add {"dst":"198.18.0.0/24","dev":"eth0","src":"198.18.0.5","scope":"link","table":100,"protocol":"kernel","replace":true}`,
      `route.add {"dst":"2001:db8::/64","dev":"eth0","scope":"global","table":100,"metric":256,"protocol":"kernel","replace":true}`,
      `rule.add {"from":"2001:db8::5/128","table":101}`,
    ]);
  });

  test("a route whose gateway lies outside the address's subnet is not copied, and every route then leaves main", () => {
    expect(lines.filter((l) => l.includes("198.18.9.0"))).toEqual([
      `route.del {"dst":"198.18.9.0/24","gw":"198.18.1.1","dev":"eth0"}`,
    ]);
    expect(plan.steps.filter((s) => s.op.op === "route.del").length).toBe(ROUTES.length);
  });

  test("every step has an undo and the reference's failure wording", () => {
    for (const s of plan.steps) expect(s.undo).toBeDefined();
    expect(plan.steps.map((s) => s.fails)).toContain("Failed to add default route to 198.18.0.1");
    expect(plan.steps.at(-1)?.fails).toBe("Failed to delete route");
    expect(plan.steps.at(-1)?.undo).toEqual({
      op: "route.add",
      ns: NS,
      dst: "2001:db8::/64",
      dev: "eth0",
      scope: "global",
      metric: 256,
      protocol: "kernel",
    });
  });

  test("static gateways replace the result's, by family", () => {
    const p = planRoutes(
      NS,
      "eth0",
      [V4, { address: "2001:db8::5/64" }],
      { rules: DEFAULTS, linkRoutes: [] },
      { v4: parseAddr("198.18.0.254")!, v6: parseAddr("2001:db8::fe")! },
      false,
    );
    expect(p.steps.filter((s) => s.op.op === "route.add").map((s) => (s.op as { gw?: string }).gw)).toEqual([
      "198.18.0.254",
      "2001:db8::fe",
    ]);
  });

  test("addSourceHints keeps link-scoped routes in main with the address as source and drops only the others, best effort", () => {
    const p = planRoutes(NS, "eth0", [V4], { rules: DEFAULTS, linkRoutes: ROUTES }, {}, true);
    expect(p.steps.some((s) => s.op.op === "route.del")).toBe(false);
    expect(p.hints).toEqual([
      { op: "route.add", ns: NS, dst: "198.18.0.0/24", dev: "eth0", src: "198.18.0.5", scope: "link", replace: true },
      { op: "route.del", ns: NS, dst: "0.0.0.0/0", gw: "198.18.0.1", dev: "eth0" },
      { op: "route.del", ns: NS, dst: "198.18.9.0/24", gw: "198.18.1.1", dev: "eth0" },
      { op: "route.del", ns: NS, dst: "2001:db8::/64", dev: "eth0", metric: 256 },
    ]);
  });

  test("with a configured table only rules are made, all into that table", () => {
    const p = planWithTable(NS, [V4, V6], 500);
    expect(p.steps.map((s) => s.op)).toEqual([
      { op: "rule.add", ns: NS, from: "198.18.0.5/32", table: 500 },
      { op: "rule.add", ns: NS, from: "2001:db8::5/128", table: 500 },
    ]);
    expect(p.steps[0]?.fails).toBe("failed to add rule");
  });
});
