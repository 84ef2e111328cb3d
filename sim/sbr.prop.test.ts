/**
 * sbr on the fake kernel, over random address sets (one or two IPv4 and IPv6 addresses,
 * with and without gateways), rules already naming some tables, `table` configured or
 * not, and `addSourceHints`: CHECK passes after ADD and fails once a rule ADD made is
 * gone (CHK-3); DEL removes exactly ADD's rules, and once the main plugin deletes the
 * interface the namespace is its baseline again; an ADD that fails at any step leaves
 * the namespace exactly as it found it (ADD-6).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { KernelError, type KernelOp } from "@tscni/kernel";
import { containerWith, NS, prevResult, runPlugin, type TestIp } from "./sbr-vrf-harness.ts";
import { sbrDefinition } from "@tscni/plugins/sbr";

const ipsArb: fc.Arbitrary<TestIp[]> = fc
  .record({ v4: fc.integer({ min: 0, max: 2 }), v6: fc.integer({ min: 0, max: 2 }), gw: fc.boolean() })
  .filter((r) => r.v4 + r.v6 > 0)
  .map((r) => [
    ...Array.from({ length: r.v4 }, (_, i) => ({
      address: `198.18.0.${5 + i}/24`,
      ...(r.gw && { gateway: "198.18.0.1" }),
    })),
    ...Array.from({ length: r.v6 }, (_, i) => ({
      address: `2001:db8::${5 + i}/64`,
      ...(r.gw && { gateway: "2001:db8::1" }),
    })),
  ]);
const takenArb = fc.uniqueArray(fc.integer({ min: 100, max: 104 }), { maxLength: 3 });
const confArb = fc.record({
  table: fc.option(fc.integer({ min: 200, max: 300 }), { nil: undefined }),
  hints: fc.boolean(),
});

function setup(ips: TestIp[], taken: number[]) {
  const extra: KernelOp[] = taken.map((t, i) => ({
    op: "rule.add",
    ns: NS,
    priority: 10 + i,
    to: "198.18.200.0/24",
    table: t,
  }));
  const kernel = containerWith(ips, extra);
  const sbr = sbrDefinition({ kernel, warn: () => {} });
  return { kernel, sbr };
}

const config = (ips: TestIp[], c: { table: number | undefined; hints: boolean }) => ({
  cniVersion: "1.0.0",
  name: "sbr-net",
  type: "sbr",
  ...(c.table !== undefined && { table: c.table }),
  ...(c.hints && { addSourceHints: true }),
  prevResult: prevResult(ips),
});

describe("sbr on the fake kernel", () => {
  test("CHECK passes after ADD and fails once one of ADD's rules is gone", async () => {
    await fc.assert(
      fc.asyncProperty(ipsArb, takenArb, confArb, fc.nat(), async (ips, taken, c, pick) => {
        const { kernel, sbr } = setup(ips, taken);
        const conf = config(ips, c);
        const before = await kernel.rules(NS);
        expect((await runPlugin(sbr, "ADD", conf)).code).toBe(0);
        expect((await runPlugin(sbr, "CHECK", conf)).code).toBe(0);
        const added = (await kernel.rules(NS)).filter(
          (r) => !before.some((b) => JSON.stringify(b) === JSON.stringify(r)),
        );
        expect(added.length).toBe(ips.length);
        const victim = added[pick % added.length]!;
        kernel.applySync([
          { op: "rule.del", ns: NS, priority: victim.priority, from: victim.from, table: victim.table },
        ]);
        const r = await runPlugin(sbr, "CHECK", conf);
        expect(r.code).toBe(1);
        expect(r.json().code).toBe(999);
        expect(String(r.json().msg)).toContain(`no rule for source ${victim.from}`);
      }),
      { numRuns: 40 },
    );
  });

  test("DEL removes exactly ADD's rules, and with the interface gone the namespace is its baseline again", async () => {
    await fc.assert(
      fc.asyncProperty(ipsArb, takenArb, confArb, async (ips, taken, c) => {
        const { kernel, sbr } = setup(ips, taken);
        const conf = config(ips, c);
        const rulesBefore = await kernel.rules(NS);
        const gone = setup(ips, taken).kernel;
        gone.applySync([{ op: "link.del", ns: NS, name: "eth0" }]);
        expect((await runPlugin(sbr, "ADD", conf)).code).toBe(0);
        expect((await runPlugin(sbr, "DEL", conf)).code).toBe(0);
        expect(await kernel.rules(NS)).toEqual(rulesBefore);
        expect((await runPlugin(sbr, "DEL", conf)).code).toBe(0); // DEL-3
        kernel.applySync([{ op: "link.del", ns: NS, name: "eth0" }]);
        expect(kernel.snapshot(NS)).toEqual(gone.snapshot(NS));
        expect((await runPlugin(sbr, "DEL", conf)).code).toBe(0); // the interface gone too
      }),
      { numRuns: 40 },
    );
  });

  test("an ADD failing at any kernel step leaves the namespace exactly as it was (ADD-6)", async () => {
    await fc.assert(
      fc.asyncProperty(ipsArb, takenArb, confArb, fc.nat(), async (ips, taken, c, at) => {
        const { kernel, sbr } = setup(ips, taken);
        const conf = config(ips, c);
        const baseline = kernel.snapshot(NS);
        const start = kernel.opCount;
        // Count the plan's kernel ops on a twin, then fail one of them.
        const twin = setup(ips, taken);
        const t0 = twin.kernel.opCount;
        await runPlugin(twin.sbr, "ADD", conf);
        const n = twin.kernel.opCount - t0;
        const failing = start + (at % Math.max(1, n));
        kernel.failAt((_, index) => index === failing, new KernelError("exists", "File exists"));
        const r = await runPlugin(sbr, "ADD", conf);
        kernel.clearFailures();
        if (r.code === 0) return; // the failure fell on a best-effort hint
        expect(r.json().code).toBe(999);
        expect(String(r.json().msg)).toMatch(
          /^(Failed to add rule|failed to add rule|Failed to add default route to [0-9a-f.:]+|Failed to readd route|Failed to delete route): file exists$/,
        );
        expect(kernel.snapshot(NS)).toEqual(baseline);
      }),
      { numRuns: 60 },
    );
  });

  test("ADD without a prevResult is code 7; a missing interface is named", async () => {
    const { sbr } = setup([{ address: "198.18.0.5/24" }], []);
    const r = await runPlugin(sbr, "ADD", { cniVersion: "1.0.0", name: "n", type: "sbr" });
    expect(r.json()).toMatchObject({ code: 7, msg: "This plugin must be called as chained plugin" });
    const r2 = await runPlugin(sbr, "ADD", config([{ address: "198.18.0.5/24" }], { table: undefined, hints: false }), {
      CNI_IFNAME: "eth9",
    });
    expect(r2.json()).toMatchObject({ code: 999, msg: "Cannot find network interface eth9: Link not found" });
  });

  test("ADD passes the previous result through unchanged (converted to the config version)", async () => {
    const ips = [{ address: "198.18.0.5/24", gateway: "198.18.0.1" }];
    const { sbr } = setup(ips, []);
    const r = await runPlugin(sbr, "ADD", config(ips, { table: undefined, hints: false }));
    expect(r.json()).toEqual({ cniVersion: "1.0.0", ...prevResult(ips), interfaces: [{ name: "eth0", sandbox: NS }] });
  });
});
