import { describe, expect, test } from "bun:test";
import { HOST, KernelError } from "../index.ts";
import { FakeKernel } from "./fake-kernel.ts";

const C = "/var/run/netns/c1";
function machine(): FakeKernel {
  const k = new FakeKernel();
  k.addNetns(C);
  k.applySync([{ op: "veth.add", ns: HOST, name: "vp0", mtu: 1500, peer: { name: "vp1", ns: HOST } }]);
  return k;
}
const kindOf = (e: unknown) => (e instanceof KernelError ? e.kind : String(e));

describe("the fake kernel's sub-links", () => {
  test("a macvlan born in a container keeps its mode, takes its lower's MTU and a MAC of its own", async () => {
    const k = machine();
    k.applySync([{ op: "macvlan.add", ns: HOST, name: "tmp0", parent: "vp0", mode: "vepa", into: C }]);
    const mv = await k.link(C, "tmp0");
    expect(mv).toMatchObject({ kind: "macvlan", macvlanMode: "vepa", mtu: 1500 });
    expect(mv?.mac).not.toBe((await k.link(HOST, "vp0"))?.mac);
    expect(await k.link(HOST, "tmp0")).toBeUndefined();
  });

  test("an ipvlan shares its lower's MAC and reports its mode and flag", async () => {
    const k = machine();
    k.applySync([{ op: "ipvlan.add", ns: HOST, name: "ipv0", parent: "vp0", mode: "l3", into: C }]);
    expect(await k.link(C, "ipv0")).toMatchObject({
      kind: "ipvlan",
      ipvlanMode: "l3",
      ipvlanFlag: "bridge",
      mac: (await k.link(HOST, "vp0"))?.mac,
    });
  });

  test("a child's MTU above its lower's is refused as invalid", () => {
    const k = machine();
    let err: unknown;
    try {
      k.applySync([{ op: "macvlan.add", ns: HOST, name: "m", parent: "vp0", mode: "bridge", mtu: 9000, into: C }]);
    } catch (e) {
      err = e;
    }
    expect(kindOf(err)).toBe("invalid");
  });

  test("deleting the lower device takes its children in every namespace, and so does deleting the lower's peer", async () => {
    const k = machine();
    k.applySync([
      { op: "macvlan.add", ns: HOST, name: "m1", parent: "vp0", mode: "bridge", into: C },
      { op: "vlan.add", ns: HOST, name: "v1", parent: "vp1", id: 7, into: C },
    ]);
    k.applySync([{ op: "link.del", ns: HOST, name: "vp1" }]);
    expect((await k.links(C)).map((l) => l.name)).toEqual(["lo"]);
  });

  test("a passthru macvlan is alone on its lower", () => {
    const k = machine();
    k.applySync([{ op: "macvlan.add", ns: HOST, name: "m1", parent: "vp0", mode: "passthru", into: C }]);
    expect(() =>
      k.applySync([{ op: "macvlan.add", ns: HOST, name: "m2", parent: "vp0", mode: "bridge", into: C }]),
    ).toThrow("alone");
  });

  test("a dummy is UNKNOWN when up, as Linux reports a device without carrier handling", async () => {
    const k = machine();
    k.applySync([
      { op: "dummy.add", ns: C, name: "d0" },
      { op: "link.set", ns: C, name: "d0", up: true },
    ]);
    expect((await k.link(C, "d0"))?.operState).toBe("UNKNOWN");
  });

  test("a macvlan whose lower is down in another namespace is DOWN, UP once the lower and its peer are up", async () => {
    const k = machine();
    k.applySync([
      { op: "macvlan.add", ns: HOST, name: "m1", parent: "vp0", mode: "bridge", into: C },
      { op: "link.set", ns: C, name: "m1", up: true },
    ]);
    expect((await k.link(C, "m1"))?.operState).toBe("DOWN");
    k.applySync([
      { op: "link.set", ns: HOST, name: "vp0", up: true },
      { op: "link.set", ns: HOST, name: "vp1", up: true },
    ]);
    expect((await k.link(C, "m1"))?.operState).toBe("UP");
  });

  test("deleting the container namespace deletes its children but leaves the lower", async () => {
    const k = machine();
    k.applySync([{ op: "macvlan.add", ns: HOST, name: "m1", parent: "vp0", mode: "bridge", into: C }]);
    k.deleteNetns(C);
    expect((await k.links(HOST)).map((l) => l.name)).toEqual(["lo", "vp1", "vp0"]);
  });
});
