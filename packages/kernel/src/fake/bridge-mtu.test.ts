/**
 * The fake's model of br_mtu_auto_adjust: a bridge follows the smallest MTU of its ports
 * unless its own MTU was set with `link.set` (found by the state-aware differential test).
 */
import { expect, test } from "bun:test";
import { HOST, type KernelOp } from "../index.ts";
import { FakeKernel } from "./fake-kernel.ts";

function bridgeMtuAfter(ops: KernelOp[]): number | undefined {
  const k = new FakeKernel();
  k.applySync([
    { op: "bridge.add", ns: HOST, name: "br0" },
    { op: "veth.add", ns: HOST, name: "veth0", peer: { name: "peer0", ns: HOST } },
    { op: "veth.add", ns: HOST, name: "veth1", mtu: 1400, peer: { name: "peer1", ns: HOST } },
    ...ops,
  ]);
  return k.snapshot(HOST).links.find((l) => l.name === "br0")?.mtu;
}

test("a bridge takes the smallest MTU of its ports as they join, change and leave", () => {
  const both: KernelOp[] = [
    { op: "link.set", ns: HOST, name: "veth0", master: "br0" },
    { op: "link.set", ns: HOST, name: "veth1", master: "br0" },
  ];
  expect(bridgeMtuAfter(both)).toBe(1400);
  expect(bridgeMtuAfter([...both, { op: "link.set", ns: HOST, name: "veth0", mtu: 1300 }])).toBe(1300);
  expect(bridgeMtuAfter([...both, { op: "link.set", ns: HOST, name: "veth1", master: null }])).toBe(1500);
  expect(
    bridgeMtuAfter([...both, { op: "link.del", ns: HOST, name: "veth1" }, { op: "link.del", ns: HOST, name: "veth0" }]),
  ).toBe(1500);
});

test("a bridge whose MTU the user changed keeps it whatever its ports do", () => {
  const ops: KernelOp[] = [
    { op: "link.set", ns: HOST, name: "br0", mtu: 9000 },
    { op: "link.set", ns: HOST, name: "veth1", master: "br0" },
    { op: "link.set", ns: HOST, name: "veth1", mtu: 1300 },
  ];
  expect(bridgeMtuAfter(ops)).toBe(9000);
});
