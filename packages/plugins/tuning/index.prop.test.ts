/**
 * Properties of tuning on the fake kernel over random configs (issue 12 item 5): ADD then
 * CHECK passes; ADD then DEL gives back the link as it was (sysctls stay, as the
 * reference's DEL leaves them); a tampered attribute makes CHECK fail; a kernel failure
 * at any op of ADD leaves the namespace and the data dir as they were (ADD-6).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { KernelError, type KernelOp } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { NS, PREV, dataDir, runTuning, withEth0 } from "./_fake.ts";

const fakeWithEth0 = (): FakeKernel => withEth0(new FakeKernel());

const SYSCTLS: [string, fc.Arbitrary<string>][] = [
  ["net.ipv4.conf.IFNAME.arp_notify", fc.constantFrom("0", "1")],
  ["net.ipv4.conf.IFNAME.proxy_arp", fc.constantFrom("0", "1")],
  ["net.ipv4.conf.IFNAME.rp_filter", fc.constantFrom("0", "1", "2")],
  ["net.ipv6.conf.IFNAME.accept_ra", fc.constantFrom("0", "1", "2")],
  ["net.ipv4.conf.all.forwarding", fc.constantFrom("0", "1")],
];
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const macArb = fc
  .uint8Array({ minLength: 6, maxLength: 6 })
  .map((b) => [(b[0]! & 0xfc) | 0x02, ...b.slice(1)].map((x) => x.toString(16).padStart(2, "0")).join(":"));

const tuningArb = fc
  .record({
    mac: opt(macArb),
    mtu: opt(fc.integer({ min: 1280, max: 9000 })),
    promisc: opt(fc.boolean()),
    allmulti: opt(fc.boolean()),
    txQLen: opt(fc.integer({ min: 0, max: 5000 })),
    sysctl: fc.subarray(SYSCTLS).chain((keys) => fc.tuple(...keys.map(([k, v]) => v.map((val) => [k, val] as const)))),
  })
  .map(({ sysctl, ...rest }) => {
    const out: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    if (sysctl.length > 0) out.sysctl = Object.fromEntries(sysctl);
    return out;
  });

const conf = (dir: string, t: Record<string, unknown>) => ({
  cniVersion: "1.0.0",
  name: "t",
  type: "tuning",
  dataDir: dir,
  prevResult: PREV,
  ...t,
});
const linkOf = async (k: ReturnType<typeof fakeWithEth0>) => (await k.link(NS, "eth0"))!;

/** One change that makes a configured value differ, or undefined when the config sets nothing a tamper can break. */
function tamper(t: Record<string, unknown>, pick: number): KernelOp | undefined {
  const link = (f: Record<string, unknown>): KernelOp => ({ op: "link.set", ns: NS, name: "eth0", ...f });
  const all: KernelOp[] = [];
  if (t.mac !== undefined)
    all.push(link({ mac: "02:ff:ff:ff:ff:fe" === t.mac ? "02:ff:ff:ff:ff:fd" : "02:ff:ff:ff:ff:fe" }));
  if (t.mtu !== undefined) all.push(link({ mtu: (t.mtu as number) + 1 }));
  all.push(link({ promisc: t.promisc !== true }));
  if (t.allmulti !== undefined) all.push(link({ allmulti: !(t.allmulti as boolean) }));
  if (t.txQLen !== undefined) all.push(link({ txQLen: (t.txQLen as number) + 1 }));
  for (const [k, v] of Object.entries((t.sysctl ?? {}) as Record<string, string>)) {
    all.push({ op: "sysctl.set", ns: NS, key: k.replace("IFNAME", "eth0"), value: v === "1" ? "0" : "1" });
  }
  return all[pick % all.length];
}

describe("tuning's properties on the fake kernel", () => {
  test("ADD then CHECK passes, and DEL gives back the link attributes as they were", async () => {
    await fc.assert(
      fc.asyncProperty(tuningArb, async (t) => {
        const k = fakeWithEth0();
        const dir = dataDir();
        const before = await linkOf(k);
        expect((await runTuning(k, "ADD", conf(dir, t))).code).toBe(0);
        const check = await runTuning(k, "CHECK", conf(dir, t));
        expect([check.code, check.stdout]).toEqual([0, ""]);
        expect((await runTuning(k, "DEL", conf(dir, t))).code).toBe(0);
        expect(await linkOf(k)).toEqual(before);
        expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  test("CHECK fails after any configured value is tampered with", async () => {
    await fc.assert(
      fc.asyncProperty(tuningArb, fc.nat(), async (t, pick) => {
        const k = fakeWithEth0();
        const dir = dataDir();
        expect((await runTuning(k, "ADD", conf(dir, t))).code).toBe(0);
        const op = tamper(t, pick);
        if (op === undefined) return;
        k.applySync([op]);
        const check = await runTuning(k, "CHECK", conf(dir, t));
        expect(check.code).toBe(1);
        expect(String(check.json().msg)).toStartWith("Error: Tuning ");
      }),
      { numRuns: 60 },
    );
  });

  test("a kernel failure at any op of ADD leaves the namespace and the data dir untouched", async () => {
    await fc.assert(
      fc.asyncProperty(tuningArb, fc.nat({ max: 12 }), async (t, failAt) => {
        const k = fakeWithEth0();
        const dir = dataDir();
        const snap = k.snapshot(NS);
        const start = k.opCount;
        k.failAt((_op, index) => index === start + failAt, new KernelError("invalid", "invalid argument"));
        const r = await runTuning(k, "ADD", conf(dir, t));
        if (r.code === 0) return; // fewer ops than failAt: nothing failed
        k.clearFailures();
        expect(k.snapshot(NS)).toEqual(snap);
        expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
