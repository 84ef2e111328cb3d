/**
 * The ADD plan against the ops that the kernel package's golden test holds byte for byte to
 * the reference plugin's requests (kernel/src/netlink/fixtures/sequence-tc.ts, captured
 * from /usr/lib/cni/bandwidth with network `bwnet`, container `ctr1`, host veth MTU 1400).
 */
import { describe, expect, test } from "bun:test";
import { ETH_P_ALL, HOST, TC_H_INGRESS, TC_H_ROOT, type KernelOp } from "@tscni/kernel";
import { ifbName, planBandwidthAdd, planRollback } from "./plan.ts";
import { goUint32, tbfParams } from "./tbf.ts";

const IFB = "bwpea62040b30ca";
const target = { hostIf: "vethbw0", hostMtu: 1400, ifb: IFB };
const none = { ingressRate: 0, ingressBurst: 0, egressRate: 0, egressBurst: 0 };
const tbf = (dev: string, rate: number, limit: number, buffer: number): KernelOp => ({
  op: "qdisc.add",
  ns: HOST,
  dev,
  kind: "tbf",
  handle: 0x10000,
  parent: TC_H_ROOT,
  tbf: { rate, limit, buffer },
});
const egress = (rate: number, limit: number, buffer: number): KernelOp[] => [
  { op: "ifb.add", ns: HOST, name: IFB, mtu: 1400, txqlen: 0, up: true },
  { op: "qdisc.add", ns: HOST, dev: "vethbw0", kind: "ingress", handle: 0xffff0000, parent: TC_H_INGRESS },
  {
    op: "filter.add",
    ns: HOST,
    dev: "vethbw0",
    parent: 0xffff0000,
    priority: 1,
    protocol: ETH_P_ALL,
    kind: "u32",
    classId: 0x10001,
    actions: [
      { kind: "mirred", action: "egress-redirect", dev: IFB, verdict: "stolen" },
      { kind: "mirred", action: "egress-redirect", dev: IFB, verdict: "pass" },
    ],
  },
  tbf(IFB, rate, limit, buffer),
];

describe("ifbName", () => {
  test("is the reference's name: bwp and the SHA-512 of network name + container ID, 15 characters", () => {
    // What /usr/lib/cni/bandwidth created for network "bwnet", container "ctr1".
    expect(ifbName("bwnet", "ctr1")).toBe(IFB);
    expect(ifbName("x", "y")).toHaveLength(15);
  });
});

describe("tbfParams", () => {
  test("computes the reference's rate, limit and buffer (captured cases)", () => {
    expect(tbfParams(8_000_000, 80_000)).toEqual({ rate: 1_000_000, limit: 35_000, buffer: 156_250 });
    expect(tbfParams(16_000_000, 160_000)).toEqual({ rate: 2_000_000, limit: 70_000, buffer: 156_250 });
    expect(tbfParams(40_000_000_000, 8_000_000)).toEqual({ rate: 5_000_000_000, limit: 126_000_000, buffer: 3_125 });
    expect(tbfParams(1_000_000, 12_345)).toEqual({ rate: 125_000, limit: 4_668, buffer: 192_875 });
  });

  test("wraps like Go's float-to-uint32 conversion on amd64 when the time does not fit", () => {
    expect(goUint32(2 ** 32 + 5.7)).toBe(5);
    expect(goUint32(Number.POSITIVE_INFINITY)).toBe(0);
    // A rate under one byte per second: Go divides by zero and converts +Inf.
    expect(tbfParams(7, 8)).toEqual({ rate: 0, limit: 1, buffer: 0 });
  });
});

describe("planBandwidthAdd", () => {
  test("shapes ingress and egress with the reference's ops, in its order", () => {
    const ops = planBandwidthAdd(
      { ingressRate: 8_000_000, ingressBurst: 80_000, egressRate: 16_000_000, egressBurst: 160_000 },
      target,
    );
    expect(ops).toEqual([tbf("vethbw0", 1_000_000, 35_000, 156_250), ...egress(2_000_000, 70_000, 156_250)]);
  });

  test("shapes egress alone, with a 64-bit rate", () => {
    expect(planBandwidthAdd({ ...none, egressRate: 40_000_000_000, egressBurst: 8_000_000 }, target)).toEqual(
      egress(5_000_000_000, 126_000_000, 3_125),
    );
  });

  test("shapes ingress alone, without an ifb", () => {
    expect(planBandwidthAdd({ ...none, ingressRate: 1_000_000, ingressBurst: 12_345 }, target)).toEqual([
      tbf("vethbw0", 125_000, 4_668, 192_875),
    ]);
  });

  test("does nothing for an all-zero entry", () => {
    expect(planBandwidthAdd(none, target)).toEqual([]);
  });
});

describe("planRollback", () => {
  const ops = planBandwidthAdd(
    { ingressRate: 8_000_000, ingressBurst: 80_000, egressRate: 16_000_000, egressBurst: 160_000 },
    target,
  );

  test("undoes nothing when the first op failed", () => {
    expect(planRollback(ops, 0)).toEqual([]);
  });

  test("removes the host's qdiscs and the ifb, newest first, when the last op failed", () => {
    expect(planRollback(ops, 4)).toEqual([
      { op: "qdisc.del", ns: HOST, dev: "vethbw0", parent: TC_H_INGRESS },
      { op: "link.del", ns: HOST, name: IFB },
      { op: "qdisc.del", ns: HOST, dev: "vethbw0", parent: TC_H_ROOT },
    ]);
  });

  test("leaves the ifb's own qdisc to go with the ifb", () => {
    expect(planRollback(ops, 5).filter((o) => o.op === "qdisc.del" && o.dev === IFB)).toEqual([]);
  });
});
