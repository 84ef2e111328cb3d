import { describe, expect, test } from "bun:test";
import { HOST, KernelError, TC_H_INGRESS, TC_H_ROOT } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import { CniError, type Result100 } from "@tscni/spec";
import { FakeKernel } from "@tscni/kernel/fake";
import { bandwidthDefinition } from "./index.ts";

const NS = "/var/run/netns/bw1";
const IFB = "bwpea62040b30ca"; // network "bwnet", container "ctr1"
const limits = { ingressRate: 8_000_000, ingressBurst: 80_000, egressRate: 16_000_000, egressBurst: 160_000 };

function machine(): FakeKernel {
  const k = new FakeKernel();
  k.addNetns(NS);
  k.applySync([
    { op: "veth.add", ns: HOST, name: "veth1", mtu: 1400, peer: { name: "eth0", ns: NS, mtu: 1400 } },
    { op: "link.set", ns: HOST, name: "veth1", up: true },
    { op: "link.set", ns: NS, name: "eth0", up: true },
  ]);
  return k;
}

function args(extra: Record<string, unknown> = {}, command = "ADD"): CmdArgs {
  const prevResult = {
    cniVersion: "1.0.0",
    interfaces: [{ name: "veth1" }, { name: "eth0", sandbox: NS }],
    ips: [{ address: "198.18.0.2/24", interface: 1 }],
  };
  const config = { cniVersion: "1.0.0", name: "bwnet", type: "bandwidth", prevResult, ...extra };
  return {
    command,
    containerID: "ctr1",
    netns: NS,
    ifName: "eth0",
    args: "",
    path: "/opt/cni/bin",
    stdinData: new TextEncoder().encode(JSON.stringify(config)),
    config,
  };
}

async function failure(p: Promise<unknown>): Promise<CniError> {
  try {
    await p;
  } catch (e) {
    return CniError.from(e);
  }
  throw new Error("expected a failure");
}

describe("bandwidth on the fake kernel", () => {
  test("ADD puts a tbf on the host veth, an ifb with the veth's MTU, and the redirect; the result names the ifb", async () => {
    const k = machine();
    const h = bandwidthDefinition(k).handlers;
    const result = (await h.add!(args(limits))) as Result100;
    expect((await k.qdiscs(HOST, "veth1")).map((q) => [q.kind, q.parent])).toEqual([
      ["tbf", TC_H_ROOT],
      ["ingress", TC_H_INGRESS],
    ]);
    const ifb = await k.link(HOST, IFB);
    expect([ifb?.kind, ifb?.mtu, ifb?.up]).toEqual(["ifb", 1400, true]);
    expect((await k.qdiscs(HOST, IFB))[0]?.tbf).toEqual({ rate: 2_000_000, limit: 70_000, buffer: 156_250 });
    expect(k.snapshot(HOST).tc.veth1?.filters[0]?.actions.map((a) => [a.dev, a.verdict])).toEqual([
      [IFB, "stolen"],
      [IFB, "pass"],
    ]);
    expect(result.interfaces?.at(-1)).toEqual({ name: IFB, mac: ifb?.mac ?? "?" });
    expect(result.interfaces).toHaveLength(3);
  });

  test("ADD with ingress only makes no ifb and returns the previous result", async () => {
    const k = machine();
    const result = (await bandwidthDefinition(k).handlers.add!(
      args({ ingressRate: 1000, ingressBurst: 100 }),
    )) as Result100;
    expect(await k.link(HOST, IFB)).toBeUndefined();
    expect(result.interfaces).toHaveLength(2);
  });

  test("ADD without limits passes the previous result through and changes nothing", async () => {
    const k = machine();
    const before = k.snapshot(HOST);
    const result = await bandwidthDefinition(k).handlers.add!(args({ runtimeConfig: { bandwidth: {} } }));
    // The previous result in the current version's form; the skel prints it in the config's.
    expect(result).toEqual({ ...(args().config.prevResult as unknown as Result100), cniVersion: "1.1.0" });
    expect(k.snapshot(HOST)).toEqual(before);
  });

  test("ADD without a previous result fails as not chained (code 7)", async () => {
    const e = await failure(bandwidthDefinition(machine()).handlers.add!(args({ ...limits, prevResult: null })));
    expect([e.code, e.msg]).toEqual([7, "must be called as chained plugin"]);
  });

  test("ADD fails with the reference's messages when the host end cannot be found", async () => {
    const k = machine();
    const h = bandwidthDefinition(k).handlers;
    expect((await failure(h.add!({ ...args(limits), ifName: "eth9" }))).msg).toBe(
      'container interface eth9 has no veth peer: could not look up "eth9": Link not found',
    );
    expect((await failure(h.add!({ ...args(limits), ifName: "lo" }))).msg).toBe(
      'container interface lo has no veth peer: interface "lo" was not a veth interface',
    );
    const other = { cniVersion: "1.0.0", interfaces: [{ name: "vethX" }, { name: "eth0", sandbox: NS }] };
    expect((await failure(h.add!(args({ ...limits, prevResult: other })))).msg).toBe(
      "no veth peer of container interface found in host ns",
    );
    expect((await failure(h.add!(args({ ...limits, prevResult: { cniVersion: "1.0.0" } })))).msg).toBe(
      "no interfaces provided",
    );
    // Go's %q of the nil NetNS the reference formats, as it prints it.
    expect((await failure(h.add!({ ...args(limits), netns: "/var/run/netns/gone" }))).msg).toBe(
      'failed to open netns %!q(<nil>): failed to Statfs "/var/run/netns/gone": no such file or directory',
    );
    expect(k.snapshot(HOST).tc).toEqual({});
  });

  test("a failed ADD leaves neither the ifb nor the host qdiscs behind", async () => {
    const k = machine();
    const before = k.snapshot(HOST);
    k.failAt((op) => op.op === "filter.add", new KernelError("other", "Operation not supported"));
    const e = await failure(bandwidthDefinition(k).handlers.add!(args(limits)));
    expect(e.msg).toBe("add filter: Operation not supported");
    k.clearFailures();
    const after = k.snapshot(HOST);
    expect(after.tc).toEqual({});
    expect(after.links.map((l) => l.name)).toEqual(before.links.map((l) => l.name));
  });

  test("an ADD whose burst leaves the tbf unable to send one byte fails as Linux refuses it, and leaves nothing", async () => {
    const k = machine();
    const before = k.snapshot(HOST);
    // 88 bit/s and an 8-bit burst: 11 B/s for 90909 µs truncates to 0.99 bytes (sch_tbf.c: EINVAL).
    const e = await failure(bandwidthDefinition(k).handlers.add!(args({ egressRate: 88, egressBurst: 8 })));
    expect(e.msg).toMatch(/^create ifb qdisc: create qdisc: .*Invalid argument/);
    const after = k.snapshot(HOST);
    expect(after.tc).toEqual({});
    expect(after.links.map((l) => l.name)).toEqual(before.links.map((l) => l.name));
  });

  test("a second ADD fails on the existing tbf as the reference does", async () => {
    const k = machine();
    const h = bandwidthDefinition(k).handlers;
    await h.add!(args(limits));
    expect((await failure(h.add!(args(limits)))).msg).toBe("create qdisc: file exists");
    // The first ADD's state is untouched by the failed second one.
    await h.check!(args(limits, "CHECK"));
  });

  test("CHECK passes after ADD and names what a tampered qdisc no longer matches", async () => {
    const k = machine();
    const h = bandwidthDefinition(k).handlers;
    await h.add!(args(limits));
    await h.check!(args(limits, "CHECK"));
    expect((await failure(h.check!(args({ ...limits, ingressRate: 9_000_000 }, "CHECK")))).msg).toBe(
      "Rate doesn't match",
    );
    k.applySync([
      { op: "qdisc.del", ns: HOST, dev: IFB, parent: TC_H_ROOT },
      {
        op: "qdisc.add",
        ns: HOST,
        dev: IFB,
        kind: "tbf",
        handle: 0x10000,
        parent: TC_H_ROOT,
        tbf: { rate: 2_000_000, limit: 70_001, buffer: 156_250 },
      },
    ]);
    expect((await failure(h.check!(args(limits, "CHECK")))).msg).toBe("Limit doesn't match");
    k.applySync([{ op: "link.del", ns: HOST, name: IFB }]);
    expect((await failure(h.check!(args(limits, "CHECK")))).msg).toBe("get ifb device: Link not found");
  });

  test("CHECK without limits passes, and without a previous result fails", async () => {
    const h = bandwidthDefinition(machine()).handlers;
    await h.check!(args({}, "CHECK"));
    expect((await failure(h.check!(args({ prevResult: null }, "CHECK")))).msg).toBe(
      "must be called as a chained plugin",
    );
  });

  test("DEL removes the ifb and succeeds again when it is gone, even without the netns", async () => {
    const k = machine();
    const h = bandwidthDefinition(k).handlers;
    await h.add!(args(limits));
    await h.del!(args(limits, "DEL"));
    expect(await k.link(HOST, IFB)).toBeUndefined();
    await h.del!(args(limits, "DEL"));
    k.deleteNetns(NS);
    await h.del!(args({}, "DEL"));
  });

  test("supports spec 0.3.0 and later, as the reference", () => {
    expect(bandwidthDefinition(machine()).versions).toEqual(["0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"]);
  });
});
