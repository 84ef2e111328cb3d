import { describe, expect, test } from "bun:test";
import { HOST } from "../index.ts";
import { routeLine } from "./diff.ts";
import { scenario } from "./scenario.ts";
import { kindOf } from "../testing/kind-of.ts";

/** c1 with eth0 up (peer veth1 in HOST), 198.18.0.5/24 and 2001:db8::5/64 on it. */
function wired() {
  const s = scenario();
  const c1 = s.containers[0] as string;
  s.kernel.applySync([
    { op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } },
    { op: "link.set", ns: c1, name: "eth0", up: true },
    { op: "link.set", ns: HOST, name: "veth1", up: true },
    { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" },
    { op: "addr.add", ns: c1, dev: "eth0", cidr: "2001:db8::5/64", nodad: true },
  ]);
  const routes = () => s.kernel.snapshot(c1).routes.map(routeLine);
  return { ...s, c1, routes };
}

describe("policy rules in the fake kernel", () => {
  test("a fresh namespace has Linux's default rules in both families", async () => {
    const { kernel, c1 } = wired();
    expect(await kernel.rules(c1)).toEqual([
      { family: 4, priority: 0, table: 255 },
      { family: 4, priority: 32766, table: 254 },
      { family: 4, priority: 32767, table: 253 },
      { family: 6, priority: 0, table: 255 },
      { family: 6, priority: 32766, table: 254 },
    ]);
  });

  test("rules without a priority count down from 32765, and identical ones pile up as Linux's do", async () => {
    const { kernel, c1 } = wired();
    kernel.applySync([
      { op: "rule.add", ns: c1, from: "198.18.0.5/32", table: 100 },
      { op: "rule.add", ns: c1, from: "198.18.0.5/32", table: 100 },
      { op: "rule.add", ns: c1, priority: 1000, to: "198.18.1.0/24", iif: "eth0", table: 300 },
      { op: "rule.add", ns: c1, from: "198.18.0.6/32", table: 101 },
      { op: "rule.add", ns: c1, from: "2001:db8::5/128", table: 102 },
    ]);
    expect((await kernel.rules(c1, 4)).map((r) => `${r.priority} ${r.from ?? r.to} ${r.table}`)).toEqual([
      "0 undefined 255",
      "999 198.18.0.6/32 101",
      "1000 198.18.1.0/24 300",
      "32764 198.18.0.5/32 100",
      "32765 198.18.0.5/32 100",
      "32766 undefined 254",
      "32767 undefined 253",
    ]);
    expect(await kernel.rules(c1, 6)).toContainEqual({
      family: 6,
      priority: 32765,
      from: "2001:db8::5/128",
      table: 102,
    });
  });

  test("rule.del removes the first rule matching the selectors it names, and fails when none does", async () => {
    const { kernel, c1 } = wired();
    kernel.applySync([
      { op: "rule.add", ns: c1, from: "198.18.0.5/32", table: 100 },
      { op: "rule.add", ns: c1, from: "198.18.0.6/32", table: 100 },
    ]);
    kernel.applySync([{ op: "rule.del", ns: c1, from: "198.18.0.5/32" }]);
    expect((await kernel.rules(c1, 4)).filter((r) => r.table === 100).map((r) => r.from)).toEqual(["198.18.0.6/32"]);
    expect(kindOf(() => kernel.applySync([{ op: "rule.del", ns: c1, from: "198.18.0.5/32" }]))).toBe("not-found");
    expect(
      kindOf(() =>
        kernel.applySync([
          { op: "rule.add", ns: c1, priority: 5, from: "198.18.0.6/32", table: 100 },
          { op: "rule.add", ns: c1, priority: 5, from: "198.18.0.6/32", table: 100 },
        ]),
      ),
    ).toBe("exists");
    expect(kindOf(() => kernel.applySync([{ op: "rule.add", ns: c1, from: "198.18.0.5/24", table: 100 }]))).toBe(
      "invalid",
    );
  });

  test("routes in another table are read only when that table is asked for", async () => {
    const { kernel, c1 } = wired();
    kernel.applySync([{ op: "route.add", ns: c1, dst: "0.0.0.0/0", gw: "198.18.0.1", dev: "eth0", table: 100 }]);
    expect((await kernel.routes(c1, 4)).map((r) => r.dst)).toEqual(["198.18.0.0/24"]);
    expect(await kernel.routes(c1, 4, 100)).toEqual([
      { dst: "0.0.0.0/0", family: 4, gw: "198.18.0.1", dev: "eth0", scope: "global", table: 100, protocol: "boot" },
    ]);
  });

  test("route replace with proto kernel moves a prefix route's copy into a table, replacing one with its key", () => {
    const { kernel, c1, routes } = wired();
    kernel.applySync([
      { op: "route.add", ns: c1, dst: "198.18.0.0/24", dev: "eth0", table: 100, scope: "link" },
      {
        op: "route.add",
        ns: c1,
        dst: "198.18.0.0/24",
        dev: "eth0",
        src: "198.18.0.5",
        scope: "link",
        table: 100,
        protocol: "kernel",
        replace: true,
      },
      { op: "route.del", ns: c1, dst: "198.18.0.0/24", dev: "eth0" },
    ]);
    expect(routes().filter((r) => r.startsWith("198.18"))).toEqual([
      "198.18.0.0/24 dev eth0 table 100 proto kernel scope link src 198.18.0.5",
    ]);
  });
});

describe("VRF devices in the fake kernel", () => {
  test("enslaving a link moves its connected routes into the VRF's table and drops its IPv6 addresses", async () => {
    const { kernel, c1, routes } = wired();
    kernel.applySync([
      { op: "vrf.add", ns: c1, name: "vrf0", table: 100 },
      { op: "link.set", ns: c1, name: "vrf0", up: true },
      { op: "link.set", ns: c1, name: "eth0", master: "vrf0" },
    ]);
    expect(await kernel.link(c1, "vrf0")).toMatchObject({ kind: "vrf", vrfTable: 100, operState: "UP" });
    expect((await kernel.link(c1, "eth0"))?.master).toBe("vrf0");
    expect(routes()).toContain("198.18.0.0/24 dev eth0 table 100 proto kernel scope link src 198.18.0.5");
    expect(routes().filter((r) => !r.includes("table 100"))).toEqual([]);
    expect((await kernel.addresses(c1, "eth0")).map((a) => a.cidr).filter((c) => !c.startsWith("fe80"))).toEqual([
      "198.18.0.5/24",
    ]);
  });

  test("releasing the link or deleting the VRF brings its routes back to main", () => {
    const { kernel, c1, routes } = wired();
    kernel.applySync([
      { op: "vrf.add", ns: c1, name: "vrf0", table: 100 },
      { op: "link.set", ns: c1, name: "eth0", master: "vrf0" },
      { op: "link.set", ns: c1, name: "eth0", master: null },
    ]);
    expect(routes()).toContain("198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.5");
    kernel.applySync([
      { op: "link.set", ns: c1, name: "eth0", master: "vrf0" },
      { op: "link.del", ns: c1, name: "vrf0" },
    ]);
    expect(routes().filter((r) => r.includes("table"))).toEqual([]);
    expect(routes()).toContain("198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.5");
  });

  test("a VRF needs a fresh name and a table other than 0", () => {
    const { kernel, c1 } = wired();
    expect(kindOf(() => kernel.applySync([{ op: "vrf.add", ns: c1, name: "eth0", table: 100 }]))).toBe("exists");
    expect(kindOf(() => kernel.applySync([{ op: "vrf.add", ns: c1, name: "vrf0", table: 0 }]))).toBe("invalid");
  });
});
