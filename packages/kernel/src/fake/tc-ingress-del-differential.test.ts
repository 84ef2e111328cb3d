/**
 * Regression of the tc differential at FC_SEED=1 (sim/bandwidth-tc.linux.test.ts): deleting
 * an ingress qdisc that is not there is not-found on the fake and on both Linux drivers,
 * whether the device never had one (the kernel: ENOENT "Cannot find specified qdisc on
 * specified device") or had one that is gone (ENOENT "Cannot delete qdisc with handle of
 * zero"). tc's `ingress` keyword got EINVAL "Invalid handle" in the second case, so the
 * iproute2 driver deletes by parent alone, as netlink does (lines-tc.ts). DEL and a failed
 * ADD's rollback count on not-found to mean "already gone" (DEL-2, ADD-6). Root only; CI
 * runs it as root.
 */
import { describe, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { HOST, type Kernel, type KernelBatch, type Netns } from "../index.ts";
import { createLinuxKernel } from "../linux/index.ts";
import { createNetlinkKernel } from "../netlink/index.ts";
import { TC_H_INGRESS, TC_H_ROOT } from "../ops-tc.ts";
import { expectSameStep } from "../testing/differential.ts";
import { createThrowawayNetns, deleteThrowawayNetns } from "../testing/throwaway.ts";
import { FakeKernel } from "./fake-kernel.ts";

const skip = skipUnless(
  "the ingress qdisc deletion differential test",
  firstMissing(missingRoot(), missingTools(["ip", "tc"])),
);

const SETUP: KernelBatch = [
  { op: "veth.add", ns: HOST, name: "veth0", mtu: 1400, peer: { name: "veth1", ns: HOST } },
  { op: "link.set", ns: HOST, name: "veth0", up: true },
];
const delIngress = { op: "qdisc.del", ns: HOST, dev: "veth0", parent: TC_H_INGRESS } as const;
const addIngress = {
  op: "qdisc.add",
  ns: HOST,
  dev: "veth0",
  kind: "ingress",
  handle: 0xffff0000,
  parent: TC_H_INGRESS,
} as const;
const addTbf = {
  op: "qdisc.add",
  ns: HOST,
  dev: "veth0",
  kind: "tbf",
  handle: 0x10000,
  parent: TC_H_ROOT,
  tbf: { rate: 10_000, limit: 10_250, buffer: 15_625_000 },
} as const;

/** Each step one batch, each batch failing alike on the fake and on Linux. */
const STEPS: readonly KernelBatch[] = [
  [delIngress], // never had one
  [addTbf, addIngress, delIngress],
  [delIngress], // had one, gone: the seed-1 counterexample
  [addIngress, delIngress, delIngress],
];

async function observe(k: Kernel, n: Netns) {
  return { qdiscs: await k.qdiscs(n, "veth0") };
}

const DRIVERS = [
  ["iproute2", createLinuxKernel],
  ["netlink", createNetlinkKernel],
] as const;

describe.skipIf(skip).each(DRIVERS)("deleting an absent ingress qdisc through the %s driver", (_, createKernel) => {
  test("is not-found, as on the fake, before and after the device has had one", async () => {
    const ns = createThrowawayNetns("tcdel");
    try {
      const fake = new FakeKernel();
      const linux = createKernel({ host: ns.path });
      await fake.apply(SETUP);
      await linux.apply(SETUP);
      for (const step of STEPS) await expectSameStep(fake, linux, step, [HOST], observe);
    } finally {
      deleteThrowawayNetns(ns);
    }
  }, 60_000);
});
