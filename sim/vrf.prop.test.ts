/**
 * vrf on the fake kernel (which models the VRF kind this machine's kernel lacks), over
 * random address sets, with `table` given or picked, a VRF that exists already or not,
 * and a second interface sharing the VRF or not: ADD enslaves the interface with its
 * routes in the VRF's table and its IPv6 addresses kept; CHECK passes after ADD and fails
 * once the interface leaves the VRF; DEL deletes the VRF with its last interface only,
 * and once the interface is gone the namespace is its baseline again; an ADD failing at
 * any step leaves the namespace as it found it (ADD-6).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { KernelError, type KernelOp } from "@tscni/kernel";
import { routeLine } from "@tscni/kernel/fake";
import { containerWith, NS, prevResult, runPlugin, type TestIp } from "./sbr-vrf-harness.ts";
import { vrfDefinition } from "@tscni/plugins/vrf";

const ipsArb: fc.Arbitrary<TestIp[]> = fc
  .record({ v4: fc.boolean(), v6: fc.boolean() })
  .filter((r) => r.v4 || r.v6)
  .map((r) => [
    ...(r.v4 ? [{ address: "198.18.0.5/24", gateway: "198.18.0.1" }] : []),
    ...(r.v6 ? [{ address: "2001:db8::5/64", gateway: "2001:db8::1" }] : []),
  ]);
const caseArb = fc.record({
  ips: ipsArb,
  table: fc.constantFrom(0, 7, 100),
  existing: fc.boolean(),
  sibling: fc.boolean(),
});
type Case = { ips: TestIp[]; table: number; existing: boolean; sibling: boolean };

/** The namespace: eth0 with the addresses, maybe a VRF `vrf0` already (table 7 or `table`), maybe a second interface in it. */
function setup(c: Case) {
  const extra: KernelOp[] = [];
  if (c.existing || c.sibling)
    extra.push(
      { op: "vrf.add", ns: NS, name: "vrf0", table: c.table === 0 ? 7 : c.table },
      { op: "link.set", ns: NS, name: "vrf0", up: true },
    );
  if (c.sibling)
    extra.push(
      { op: "veth.add", ns: NS, name: "eth1", peer: { name: "eth2", ns: NS } },
      { op: "link.set", ns: NS, name: "eth1", master: "vrf0" },
    );
  const kernel = containerWith(c.ips, extra);
  return { kernel, vrf: vrfDefinition({ kernel, warn: () => {} }) };
}
const config = (c: Case) => ({
  cniVersion: "1.0.0",
  name: "vrf-net",
  type: "vrf",
  vrfname: "vrf0",
  ...(c.table !== 0 && { table: c.table }),
  prevResult: prevResult(c.ips),
});

describe("vrf on the fake kernel", () => {
  test("ADD enslaves the interface, its routes in the VRF's table and its IPv6 addresses kept; CHECK passes, and fails once it leaves", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const { kernel, vrf } = setup(c);
        const addrs = (await kernel.addresses(NS, "eth0")).filter((a) => a.scope === "global").map((a) => a.cidr);
        const routes = (await kernel.routes(NS))
          .filter((r) => r.dev === "eth0" && r.gw !== undefined)
          .map((r) => `${r.dst} via ${r.gw}`);
        expect((await runPlugin(vrf, "ADD", config(c))).code).toBe(0);
        const link = await kernel.link(NS, "vrf0");
        const table =
          c.existing || c.sibling || c.table === 0
            ? c.table === 0
              ? c.existing || c.sibling
                ? 7
                : 1
              : c.table
            : c.table;
        expect(link?.vrfTable).toBe(table);
        expect((await kernel.link(NS, "eth0"))?.master).toBe("vrf0");
        expect(
          (await kernel.addresses(NS, "eth0"))
            .filter((a) => a.scope === "global")
            .map((a) => a.cidr)
            .sort(),
        ).toEqual(addrs.sort());
        const moved = (await kernel.routes(NS, undefined, table))
          .filter((r) => r.gw !== undefined)
          .map((r) => `${r.dst} via ${r.gw}`);
        expect(moved.sort()).toEqual(routes.sort());
        expect((await kernel.routes(NS)).filter((r) => r.dev === "eth0")).toEqual([]);
        expect((await runPlugin(vrf, "CHECK", config(c))).code).toBe(0);
        kernel.applySync([{ op: "link.set", ns: NS, name: "eth0", master: null }]);
        const r = await runPlugin(vrf, "CHECK", config(c));
        expect(r.json()).toMatchObject({ code: 999, msg: "failed to find eth0 associated to vrf vrf0" });
      }),
      { numRuns: 40 },
    );
  });

  test("DEL deletes the VRF with its last interface only; with the interface gone the namespace is its baseline", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const { kernel, vrf } = setup(c);
        const gone = setup(c).kernel;
        gone.applySync([{ op: "link.del", ns: NS, name: "eth0" }]);
        expect((await runPlugin(vrf, "ADD", config(c))).code).toBe(0);
        expect((await runPlugin(vrf, "DEL", config(c))).code).toBe(0);
        expect((await kernel.link(NS, "eth0"))?.master).toBeUndefined();
        expect((await kernel.link(NS, "vrf0")) !== undefined).toBe(c.sibling);
        expect((await runPlugin(vrf, "DEL", config(c))).code).toBe(0); // DEL-3
        kernel.applySync([{ op: "link.del", ns: NS, name: "eth0" }]);
        if (c.existing && !c.sibling) gone.applySync([{ op: "link.del", ns: NS, name: "vrf0" }]);
        expect(kernel.snapshot(NS)).toEqual(gone.snapshot(NS));
      }),
      { numRuns: 40 },
    );
  });

  test("an ADD failing at any kernel step leaves the namespace as it was (ADD-6)", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, fc.nat(), async (c, at) => {
        const { kernel, vrf } = setup(c);
        const twin = setup(c);
        const t0 = twin.kernel.opCount;
        await runPlugin(twin.vrf, "ADD", config(c));
        const n = twin.kernel.opCount - t0;
        const baseline = kernel.snapshot(NS);
        const failing = kernel.opCount + (at % n);
        kernel.failAt((_, index) => index === failing, new KernelError("invalid", "Invalid argument"));
        const r = await runPlugin(vrf, "ADD", config(c));
        kernel.clearFailures();
        expect(r.json()).toMatchObject({ code: 999 });
        expect(String(r.json().msg)).toMatch(/^cmdAdd failed: .*invalid argument$/);
        const lines = (s: typeof baseline) => ({ ...s, routes: s.routes.map(routeLine).sort() });
        expect(lines(kernel.snapshot(NS))).toEqual(lines(baseline));
      }),
      { numRuns: 60 },
    );
  });

  test("a VRF with another table, a link that is not a VRF, or an interface with a master is refused as the reference refuses it", async () => {
    const c: Case = { ips: [{ address: "198.18.0.5/24" }], table: 9, existing: false, sibling: false };
    const { kernel, vrf } = setup(c);
    kernel.applySync([{ op: "vrf.add", ns: NS, name: "vrf0", table: 8 }]);
    expect((await runPlugin(vrf, "ADD", config(c))).json()).toMatchObject({
      code: 999,
      msg: "cmdAdd failed: VRF vrf0 already exist with different routing table 8",
    });
    expect((await runPlugin(vrf, "ADD", { ...config(c), vrfname: "eth0" })).json()).toMatchObject({
      msg: "cmdAdd failed: Netlink eth0 is not a VRF",
    });
    kernel.applySync([
      { op: "bridge.add", ns: NS, name: "br0" },
      { op: "link.set", ns: NS, name: "eth0", master: "br0" },
    ]);
    expect((await runPlugin(vrf, "ADD", { ...config(c), table: 8 })).json()).toMatchObject({
      msg: "cmdAdd failed: interface eth0 has already a master set: br0",
    });
    expect(
      (await runPlugin(vrf, "ADD", { cniVersion: "1.0.0", name: "n", type: "vrf", vrfname: "v" })).json(),
    ).toMatchObject({ code: 7, msg: "missing prevResult from earlier plugin" });
    expect(
      (await runPlugin(vrf, "ADD", { ...config(c), cniVersion: "0.3.0", prevResult: undefined })).json(),
    ).toMatchObject({ code: 1, msg: "incompatible CNI versions" });
  });
});
