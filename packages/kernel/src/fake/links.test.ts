import { describe, expect, test } from "bun:test";
import { HOST, KernelError } from "../index.ts";
import { scenario } from "./scenario.ts";
import { kindOf } from "../testing/kind-of.ts";

function setup() {
  const s = scenario();
  const [c1, c2] = s.containers as [string, string];
  const names = (ns: string) => s.kernel.snapshot(ns).links.map((l) => l.name);
  const link = (ns: string, name: string) => s.kernel.snapshot(ns).links.find((l) => l.name === name);
  return { ...s, c1, c2, names, link };
}

describe("veth pairs", () => {
  test("a veth created with its peer in another namespace has an end in each", () => {
    const { kernel, c1, names, link } = setup();
    kernel.applySync([{ op: "veth.add", ns: c1, name: "eth0", mtu: 1400, peer: { name: "veth1", ns: HOST } }]);
    expect(names(c1)).toEqual(["lo", "eth0"]);
    expect(link(c1, "eth0")).toMatchObject({
      index: 2,
      kind: "veth",
      mtu: 1400,
      peerIndex: 2,
      up: false,
      operState: "DOWN",
    });
    expect(link(HOST, "veth1")).toMatchObject({ index: 2, peerIndex: 2, mtu: 1500 });
    expect(kernel.peerOf(c1, "eth0")).toEqual({ ns: HOST, name: "veth1" });
  });

  test("in one namespace the peer is created first and gets the lower index", () => {
    const { kernel, link } = setup();
    kernel.applySync([{ op: "veth.add", ns: HOST, name: "a", peer: { name: "b", ns: HOST } }]);
    expect(link(HOST, "b")?.index).toBe(2);
    expect(link(HOST, "a")).toMatchObject({ index: 3, peerIndex: 2 });
  });

  test("a veth is operationally up only when both ends are up", () => {
    const { kernel, c1, link } = setup();
    kernel.applySync([
      { op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } },
      { op: "link.set", ns: c1, name: "eth0", up: true },
    ]);
    expect(link(c1, "eth0")?.operState).toBe("LOWERLAYERDOWN");
    kernel.applySync([{ op: "link.set", ns: HOST, name: "veth1", up: true }]);
    expect(link(c1, "eth0")?.operState).toBe("UP");
    expect(link(HOST, "veth1")?.operState).toBe("UP");
  });

  test("deleting one end deletes the other", () => {
    const { kernel, c1, names } = setup();
    kernel.applySync([{ op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } }]);
    kernel.applySync([{ op: "link.del", ns: HOST, name: "veth1" }]);
    expect(names(c1)).toEqual(["lo"]);
    expect(names(HOST)).toEqual(["lo"]);
  });

  test("deleting a namespace deletes the veth peers it had elsewhere", () => {
    const { kernel, c1, names } = setup();
    kernel.applySync([{ op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } }]);
    kernel.deleteNetns(c1);
    expect(names(HOST)).toEqual(["lo"]);
    expect(kindOf(() => kernel.snapshot(c1))).toBe("netns-gone");
  });

  test("moving an end gives it a new index in the target and leaves its addresses behind", () => {
    const { kernel, c1, c2, link } = setup();
    kernel.applySync([
      { op: "veth.add", ns: HOST, name: "tmp0", peer: { name: "veth1", ns: HOST } },
      { op: "link.set", ns: HOST, name: "tmp0", up: true },
      { op: "addr.add", ns: HOST, dev: "tmp0", cidr: "198.18.0.2/24" },
      { op: "veth.add", ns: c2, name: "x", peer: { name: "y", ns: c2 } },
      { op: "link.move", ns: HOST, name: "tmp0", to: c2 },
    ]);
    expect(link(c2, "tmp0")).toMatchObject({ index: 4, up: false });
    expect(link(HOST, "veth1")?.peerIndex).toBe(4);
    expect(kernel.peerOf(HOST, "veth1")).toEqual({ ns: c2, name: "tmp0" });
    expect(kernel.snapshot(c2).addresses).toEqual([]);
    expect(kernel.snapshot(HOST).routes.filter((r) => r.family === 4)).toEqual([]);
    expect(kindOf(() => kernel.applySync([{ op: "link.move", ns: c2, name: "x", to: c1 }]))).toBeUndefined();
  });

  test("indexes are never reused after a delete", () => {
    const { kernel, c1, link } = setup();
    kernel.applySync([
      { op: "veth.add", ns: c1, name: "a", peer: { name: "b", ns: c1 } },
      { op: "link.del", ns: c1, name: "a" },
      { op: "veth.add", ns: c1, name: "a", peer: { name: "b", ns: c1 } },
    ]);
    expect(link(c1, "b")?.index).toBe(4);
  });

  test("names must be unique per namespace and at most 15 bytes", () => {
    const { kernel, c1 } = setup();
    kernel.applySync([{ op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } }]);
    expect(
      kindOf(() => kernel.applySync([{ op: "veth.add", ns: c1, name: "eth0", peer: { name: "v2", ns: HOST } }])),
    ).toBe("exists");
    expect(
      kindOf(() => kernel.applySync([{ op: "veth.add", ns: c1, name: "eth1", peer: { name: "veth1", ns: HOST } }])),
    ).toBe("exists");
    expect(kindOf(() => kernel.applySync([{ op: "bridge.add", ns: c1, name: "a23456789012345" }]))).toBeUndefined();
    expect(kindOf(() => kernel.applySync([{ op: "bridge.add", ns: c1, name: "a234567890123456" }]))).toBe("invalid");
  });

  test("creating into a missing namespace fails with netns-gone", () => {
    const { kernel, c1 } = setup();
    const op = { op: "veth.add", ns: c1, name: "eth0", peer: { name: "v", ns: "/var/run/netns/gone" } } as const;
    expect(kindOf(() => kernel.applySync([op]))).toBe("netns-gone");
  });

  test("lo and bridges cannot be deleted or moved in ways the kernel refuses", () => {
    const { kernel, c1 } = setup();
    kernel.applySync([{ op: "bridge.add", ns: HOST, name: "cni0" }]);
    expect(kindOf(() => kernel.applySync([{ op: "link.del", ns: c1, name: "lo" }]))).toBe("invalid");
    expect(kindOf(() => kernel.applySync([{ op: "link.move", ns: HOST, name: "cni0", to: c1 }]))).toBe("invalid");
  });

  test("renaming an up link is refused and a down one is renamed", () => {
    const { kernel, c1, names } = setup();
    kernel.applySync([{ op: "veth.add", ns: c1, name: "tmp", peer: { name: "veth1", ns: HOST } }]);
    kernel.applySync([{ op: "link.set", ns: c1, name: "tmp", newName: "eth0", up: true }]);
    expect(names(c1)).toEqual(["lo", "eth0"]);
    expect(kindOf(() => kernel.applySync([{ op: "link.set", ns: c1, name: "eth0", newName: "eth1" }]))).toBe("invalid");
  });
});

describe("bridges", () => {
  function bridged() {
    const s = setup();
    s.kernel.applySync([
      { op: "bridge.add", ns: HOST, name: "cni0" },
      { op: "link.set", ns: HOST, name: "cni0", up: true },
      { op: "veth.add", ns: s.c1, name: "eth0", peer: { name: "veth1", ns: HOST } },
      { op: "link.set", ns: HOST, name: "veth1", master: "cni0", up: true },
    ]);
    return s;
  }

  test("an up bridge without ports is UNKNOWN, with an up port UP, with only down ports DOWN", () => {
    const { kernel, c1, link } = setup();
    kernel.applySync([
      { op: "bridge.add", ns: HOST, name: "cni0" },
      { op: "link.set", ns: HOST, name: "cni0", up: true },
    ]);
    expect(link(HOST, "cni0")?.operState).toBe("UNKNOWN");
    kernel.applySync([
      { op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } },
      { op: "link.set", ns: HOST, name: "veth1", master: "cni0", up: true },
    ]);
    expect(link(HOST, "cni0")?.operState).toBe("DOWN");
    kernel.applySync([{ op: "link.set", ns: c1, name: "eth0", up: true }]);
    expect(link(HOST, "cni0")?.operState).toBe("UP");
  });

  test("a port reports its master and port flags, and gets the default PVID", () => {
    const { kernel, link } = bridged();
    kernel.applySync([{ op: "bridge-port.set", ns: HOST, name: "veth1", hairpin: true }]);
    expect(link(HOST, "veth1")).toMatchObject({ master: "cni0", hairpin: true, isolated: false });
    expect(kernel.snapshot(HOST).bridgeVlans).toEqual({
      cni0: [{ vid: 1, pvid: true, untagged: true }],
      veth1: [{ vid: 1, pvid: true, untagged: true }],
    });
  });

  test("deleting a bridge releases its ports", () => {
    const { kernel, link } = bridged();
    kernel.applySync([{ op: "link.del", ns: HOST, name: "cni0" }]);
    expect(link(HOST, "veth1")).toMatchObject({ name: "veth1" });
    expect(link(HOST, "veth1")?.master).toBeUndefined();
  });

  test("the master must be a bridge of the same namespace", () => {
    const { kernel, c1 } = bridged();
    expect(kindOf(() => kernel.applySync([{ op: "link.set", ns: c1, name: "eth0", master: "cni0" }]))).toBe(
      "not-found",
    );
    expect(kindOf(() => kernel.applySync([{ op: "link.set", ns: HOST, name: "veth1", master: "lo" }]))).toBe("invalid");
  });

  test("nomaster releases a port and bridge VLANs can be added and removed", () => {
    const { kernel, link } = bridged();
    kernel.applySync([{ op: "bridge-vlan.add", ns: HOST, dev: "veth1", vid: 100, pvid: true, untagged: true }]);
    expect(kernel.snapshot(HOST).bridgeVlans.veth1).toEqual([
      { vid: 1, pvid: false, untagged: true },
      { vid: 100, pvid: true, untagged: true },
    ]);
    kernel.applySync([{ op: "bridge-vlan.del", ns: HOST, dev: "veth1", vid: 100 }]);
    expect(kindOf(() => kernel.applySync([{ op: "bridge-vlan.del", ns: HOST, dev: "veth1", vid: 100 }]))).toBe(
      "not-found",
    );
    kernel.applySync([{ op: "link.set", ns: HOST, name: "veth1", master: null }]);
    expect(link(HOST, "veth1")?.master).toBeUndefined();
    expect(kindOf(() => kernel.applySync([{ op: "bridge-port.set", ns: HOST, name: "veth1", hairpin: true }]))).toBe(
      "invalid",
    );
    // With no flag to set, Linux accepts it on any link (seen in the differential test).
    kernel.applySync([{ op: "bridge-port.set", ns: HOST, name: "veth1" }]);
  });
});

describe("VLAN links", () => {
  test("a VLAN link takes its parent's MAC and MTU and dies with it", () => {
    const { kernel, link, names } = setup();
    kernel.applySync([
      { op: "bridge.add", ns: HOST, name: "cni0", mtu: 9000 },
      { op: "vlan.add", ns: HOST, name: "cni0.100", parent: "cni0", id: 100 },
    ]);
    expect(link(HOST, "cni0.100")).toMatchObject({
      kind: "vlan",
      vlanId: 100,
      parent: "cni0",
      mtu: 9000,
      mac: link(HOST, "cni0")?.mac,
    });
    expect(kernel.snapshot(HOST).sysctls["net.ipv4.conf.cni0/100.arp_notify"]).toBe("0");
    kernel.applySync([{ op: "link.del", ns: HOST, name: "cni0" }]);
    expect(names(HOST)).toEqual(["lo"]);
  });

  test("a VLAN link follows its parent down", () => {
    const { kernel, link } = setup();
    kernel.applySync([
      { op: "bridge.add", ns: HOST, name: "cni0" },
      { op: "vlan.add", ns: HOST, name: "cni0.7", parent: "cni0", id: 7 },
      { op: "link.set", ns: HOST, name: "cni0.7", up: true },
    ]);
    expect(link(HOST, "cni0.7")?.operState).toBe("LOWERLAYERDOWN");
    kernel.applySync([{ op: "link.set", ns: HOST, name: "cni0", up: true }]);
    expect(link(HOST, "cni0.7")?.operState).toBe("UP");
    kernel.applySync([{ op: "link.set", ns: HOST, name: "cni0", up: false }]);
    expect(link(HOST, "cni0.7")?.up).toBe(false);
  });
});

describe("batches", () => {
  test("a batch stops at the first failure, keeps earlier ops and reports the op's index", () => {
    const { kernel, c1, names } = setup();
    let error: unknown;
    try {
      kernel.applySync([
        { op: "bridge.add", ns: c1, name: "br0" },
        { op: "link.del", ns: c1, name: "nope" },
        { op: "bridge.add", ns: c1, name: "br1" },
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(KernelError);
    expect(error).toMatchObject({
      kind: "not-found",
      opIndex: 1,
      message: 'cannot find device "nope" in netns "/var/run/netns/c1"',
    });
    expect(names(c1)).toEqual(["lo", "br0"]);
  });

  test("failAt injects a failure that sees the global and the batch index", async () => {
    const { kernel, c1, names } = setup();
    const seen: [number, number][] = [];
    kernel.failAt((op, index, batchIndex) => {
      seen.push([index, batchIndex]);
      return op.op === "bridge.add" && op.name === "br1";
    }, new KernelError("exists", "boom"));
    await kernel.apply([{ op: "bridge.add", ns: c1, name: "br0" }]);
    const err = await kernel.apply([{ op: "bridge.add", ns: c1, name: "br1" }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "exists", message: "boom", opIndex: 0 });
    expect(seen).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(names(c1)).toEqual(["lo", "br0"]);
    kernel.clearFailures();
    await kernel.apply([{ op: "bridge.add", ns: c1, name: "br1" }]);
    expect(kernel.log.map((o) => o.op)).toEqual(["bridge.add", "bridge.add"]);
  });
});
