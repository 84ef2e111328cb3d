/**
 * The bridge plugin on the fake kernel, through the plugin framework: the ADD/CHECK/DEL
 * contract for every spec version, one example per config field, one per error.
 */
import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { VERSIONS, versionAtLeast } from "@tscni/spec";
import { PluginHarness, asCurrent, resultAddresses, resultInterface } from "./plugin-harness.ts";
import { canReach } from "@tscni/kernel/fake";

const NS1 = "/var/run/netns/b1";
const NS2 = "/var/run/netns/b2";

function net(version: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cniVersion: version,
    name: "brnet",
    type: "bridge",
    bridge: "cni0",
    isGateway: true,
    ipam: { type: "host-local", ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "2001:db8:b::/64" }]] },
    ...extra,
  };
}

function machine(seed = 7): PluginHarness {
  const h = new PluginHarness({ seed });
  h.kernel.addNetns(NS1);
  h.kernel.addNetns(NS2);
  return h;
}

const linkIn = (h: PluginHarness, ns: string, name: string) => h.kernel.snapshot(ns).links.find((l) => l.name === name);
const addrsOf = (h: PluginHarness, ns: string, dev: string) =>
  h.kernel
    .snapshot(ns)
    .addresses.filter((a) => a.dev === dev)
    .map((a) => a.cidr);

describe.each([...VERSIONS])("bridge at %s", (version) => {
  test("ADD attaches a dual-stack veth to the bridge and prints the result in the config's version", async () => {
    const h = machine();
    const add = await h.run("bridge", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
    expect(add.code).toBe(0);
    expect(add.json?.cniVersion).toBe(version);
    expect(resultAddresses(add.json)).toEqual(["198.18.0.2/24", "2001:db8:b::2/64"]);
    expect(addrsOf(h, NS1, "eth0")).toEqual(expect.arrayContaining(["198.18.0.2/24", "2001:db8:b::2/64"]));
    expect(addrsOf(h, HOST, "cni0")).toEqual(expect.arrayContaining(["198.18.0.1/24", "2001:db8:b::1/64"]));
    const peer = h.kernel.peerOf(NS1, "eth0");
    expect(linkIn(h, HOST, peer!.name)?.master).toBe("cni0");
    if (versionAtLeast(version, "0.3.0")) {
      expect(resultInterface(add.json, 0)?.name).toBe("cni0");
      expect(resultInterface(add.json, 1)).toEqual({ name: peer!.name, mac: linkIn(h, HOST, peer!.name)!.mac });
      expect(resultInterface(add.json, 2)).toEqual({ name: "eth0", mac: linkIn(h, NS1, "eth0")!.mac, sandbox: NS1 });
    }
  });

  test("DEL removes the interface, releases the addresses and can be repeated (DEL-1, DEL-3)", async () => {
    const h = machine();
    const add = await h.run("bridge", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
    const prev = versionAtLeast(version, "0.4.0") ? { prevResult: add.json } : {};
    expect(h.reserved("brnet")).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      const del = await h.run("bridge", "DEL", { config: net(version, prev), containerID: "ctr1", netns: NS1 });
      expect(del.code).toBe(0);
      expect(del.stdout).toBe("");
    }
    expect(h.kernel.snapshot(NS1).links.map((l) => l.name)).toEqual(["lo"]);
    expect(h.reserved("brnet")).toEqual([]);
  });

  test("DEL with the namespace gone still releases the addresses (DEL-2)", async () => {
    const h = machine();
    await h.run("bridge", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
    h.kernel.deleteNetns(NS1);
    expect((await h.run("bridge", "DEL", { config: net(version), containerID: "ctr1", netns: NS1 })).code).toBe(0);
    expect((await h.run("bridge", "DEL", { config: net(version), containerID: "ctr1", netns: "" })).code).toBe(0);
    expect(h.reserved("brnet")).toEqual([]);
  });

  test("two containers on the bridge reach each other over both families", async () => {
    const h = machine();
    const a = await h.run("bridge", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
    const b = await h.run("bridge", "ADD", { config: net(version), containerID: "ctr2", netns: NS2 });
    for (const cidr of resultAddresses(b.json)) expect(canReach(h.kernel, NS1, cidr.split("/")[0]!)).toBe(true);
    for (const cidr of resultAddresses(a.json)) expect(canReach(h.kernel, NS2, cidr.split("/")[0]!)).toBe(true);
  });

  // Not a skip: the case does not exist at this version, so it is not registered.
  if (versionAtLeast(version, "0.4.0"))
    test("CHECK passes after ADD and fails once an address is gone (CHK-3)", async () => {
      const h = machine();
      const add = await h.run("bridge", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
      const check = () =>
        h.run("bridge", "CHECK", { config: net(version, { prevResult: add.json }), containerID: "ctr1", netns: NS1 });
      expect((await check()).code).toBe(0);
      await h.kernel.apply([{ op: "addr.del", ns: NS1, dev: "eth0", cidr: "198.18.0.2/24" }]);
      const failed = await check();
      expect(failed.code).toBe(1);
      expect(failed.json?.msg).toBe("Failed to match addr 198.18.0.2/24 on interface eth0");
    });
});

describe("bridge CHECK", () => {
  test("fails without a prevResult, and when the host veth is gone", async () => {
    const h = machine();
    const add = await h.run("bridge", "ADD", { config: net("1.0.0"), containerID: "ctr1", netns: NS1 });
    expect((await h.run("bridge", "CHECK", { config: net("1.0.0"), containerID: "ctr1", netns: NS1 })).json?.msg).toBe(
      "Required prevResult missing",
    );
    await h.kernel.apply([{ op: "link.set", ns: HOST, name: "cni0", promisc: true }]);
    const promisc = await h.run("bridge", "CHECK", {
      config: net("1.0.0", { prevResult: add.json }),
      containerID: "ctr1",
      netns: NS1,
    });
    expect(promisc.json?.msg).toBe(
      "Bridge interface cni0 configured Promisc Mode false doesn't match current state: true ",
    );
  });

  test("of an L2 network does not ask IPAM (the reference's quirk, [DIFF])", async () => {
    const h = machine();
    const l2 = net("1.1.0", { ipam: {}, isGateway: false });
    const add = await h.run("bridge", "ADD", { config: l2, containerID: "ctr1", netns: NS1 });
    expect(
      (await h.run("bridge", "CHECK", { config: { ...l2, prevResult: add.json }, containerID: "ctr1", netns: NS1 }))
        .code,
    ).toBe(0);
  });
});

// One version of each result family (§3.2-3.4).
const FAMILIES = ["0.2.0", "0.4.0", "1.1.0"];

describe.each(FAMILIES)("bridge config fields at %s", (version) => {
  const add = async (extra: Record<string, unknown>, h = machine()) => ({
    h,
    run: await h.run("bridge", "ADD", { config: net(version, extra), containerID: "ctr1", netns: NS1 }),
  });
  const hostVeth = (h: PluginHarness) => linkIn(h, HOST, h.kernel.peerOf(NS1, "eth0")!.name)!;

  test("bridge names the bridge", async () => {
    const { h, run } = await add({ bridge: "br-test" });
    expect(run.code).toBe(0);
    expect(hostVeth(h).master).toBe("br-test");
  });

  test("isGateway false leaves the bridge without addresses and forwarding off", async () => {
    const { h, run } = await add({ isGateway: false });
    expect(run.code).toBe(0);
    expect(addrsOf(h, HOST, "cni0").filter((a) => !a.startsWith("fe80"))).toEqual([]);
    expect(h.kernel.snapshot(HOST).sysctls["net.ipv4.ip_forward"]).toBe("0");
  });

  test("isDefaultGateway adds default routes through the bridge", async () => {
    const { h, run } = await add({ isDefaultGateway: true });
    expect(asCurrent(run.json).routes).toEqual([
      { dst: "0.0.0.0/0", gw: "198.18.0.1" },
      { dst: "::/0", gw: "2001:db8:b::1" },
    ]);
    const routes = h.kernel.snapshot(NS1).routes;
    expect(routes.some((r) => r.dst === "0.0.0.0/0" && r.gw === "198.18.0.1")).toBe(true);
    expect(canReach(h.kernel, NS1, "198.18.0.1")).toBe(true);
  });

  test("forceAddress replaces a different address on the bridge", async () => {
    const h = machine();
    await h.kernel.apply([
      { op: "bridge.add", ns: HOST, name: "cni0" },
      { op: "addr.add", ns: HOST, dev: "cni0", cidr: "198.18.9.1/24" },
    ]);
    const refused = await add({}, h);
    expect(refused.run.json?.msg).toBe(
      'failed to set bridge addr: "cni0" already has an IP address different from 198.18.0.1/24',
    );
    const forced = await add({ forceAddress: true }, h);
    expect(forced.run.code).toBe(0);
    expect(addrsOf(h, HOST, "cni0")).not.toContain("198.18.9.1/24");
  });

  test("mtu applies to the bridge and both veth ends", async () => {
    const { h } = await add({ mtu: 1400 });
    expect(linkIn(h, HOST, "cni0")?.mtu).toBe(1400);
    expect(linkIn(h, NS1, "eth0")?.mtu).toBe(1400);
    expect(hostVeth(h).mtu).toBe(1400);
  });

  test("hairpinMode sets hairpin on the host port", async () => {
    expect(hostVeth((await add({ hairpinMode: true })).h).hairpin).toBe(true);
  });

  test("promiscMode puts the bridge in promiscuous mode", async () => {
    expect(linkIn((await add({ promiscMode: true })).h, HOST, "cni0")?.promisc).toBe(true);
  });

  test("portIsolation isolates the host port", async () => {
    expect(hostVeth((await add({ portIsolation: true })).h).isolated).toBe(true);
  });

  test("vlan makes an access port and a <bridge>.<vlan> gateway carrying the gateway address", async () => {
    const { h, run } = await add({ vlan: 100, preserveDefaultVlan: false });
    expect(run.code).toBe(0);
    expect(linkIn(h, HOST, "cni0")?.vlanFiltering).toBe(true);
    expect(h.kernel.snapshot(HOST).bridgeVlans[hostVeth(h).name]).toEqual([{ vid: 100, pvid: true, untagged: true }]);
    expect(addrsOf(h, HOST, "cni0.100")).toContain("198.18.0.1/24");
    if (versionAtLeast(version, "0.3.0")) expect(resultInterface(run.json, 3)?.name).toBe("cni0.100");
  });

  test("vlanTrunk tags the trunk's VLANs and keeps VLAN 1 native; preserveDefaultVlan keeps it", async () => {
    const { h } = await add({ isGateway: false, vlanTrunk: [{ id: 5 }, { minID: 7, maxID: 8 }] });
    expect(h.kernel.snapshot(HOST).bridgeVlans[hostVeth(h).name]?.map((v) => v.vid)).toEqual([1, 5, 7, 8]);
  });

  test("enabledad keeps duplicate address detection on the container interface", async () => {
    const on = await add({ enabledad: true });
    expect(on.run.code).toBe(0);
    expect(on.h.kernel.snapshot(NS1).sysctls["net.ipv6.conf.eth0.accept_dad"]).toBe("1");
    const off = await add({});
    expect(off.h.kernel.snapshot(NS1).sysctls["net.ipv6.conf.eth0.accept_dad"]).toBe("0");
  });

  // Not a skip: the case does not exist at this version, so it is not registered.
  if (versionAtLeast(version, "0.3.0"))
    test("disableContainerInterface leaves the container end down on an L2 network", async () => {
      const { h, run } = await add({ ipam: {}, isGateway: false, disableContainerInterface: true });
      expect(run.code).toBe(0);
      expect(linkIn(h, NS1, "eth0")?.up).toBe(false);
    });

  // Not a skip: the case does not exist at this version, so it is not registered.
  if (versionAtLeast(version, "0.3.0"))
    test("an L2 network brings the container end up without addresses", async () => {
      const { h, run } = await add({ ipam: {}, isGateway: false });
      expect(asCurrent(run.json).ips).toBeUndefined();
      expect(linkIn(h, NS1, "eth0")?.up).toBe(true);
    });

  // Not a skip: the case does not exist at this version, so it is not registered.
  if (!versionAtLeast(version, "0.3.0"))
    test("an L2 network cannot be expressed before 0.3.0, so ADD fails and leaves nothing", async () => {
      const { h, run } = await add({ ipam: {}, isGateway: false });
      expect(run.json?.msg).toBe("cannot convert: no valid IP addresses");
      expect(h.kernel.snapshot(NS1).links.map((l) => l.name)).toEqual(["lo"]);
    });

  test("the MAC from runtimeConfig goes on the container end", async () => {
    const { h } = await add({ runtimeConfig: { mac: "0a:58:c6:12:00:09" } });
    expect(linkIn(h, NS1, "eth0")?.mac).toBe("0a:58:c6:12:00:09");
  });

  test("dns replaces the IPAM DNS", async () => {
    expect(asCurrent((await add({ dns: { nameservers: ["198.18.0.53"] } })).run.json).dns).toEqual({
      nameservers: ["198.18.0.53"],
    });
  });
});

describe("bridge concurrency", () => {
  test("ADDs racing to create the bridge all succeed, as the reference ignores EEXIST there", async () => {
    const h = machine();
    const namespaces = [NS1, NS2, "/var/run/netns/b3"];
    h.kernel.addNetns("/var/run/netns/b3");
    const runs = await Promise.all(
      namespaces.map((netns, i) => h.run("bridge", "ADD", { config: net("1.1.0"), containerID: `race${i}`, netns })),
    );
    expect(runs.map((r) => r.json?.msg)).toEqual([undefined, undefined, undefined]);
    expect(new Set(runs.flatMap((r) => resultAddresses(r.json))).size).toBe(6);
    expect(canReach(h.kernel, NS1, resultAddresses(runs[2]?.json)[0]!.split("/")[0]!)).toBe(true);
  });
});

describe.each(FAMILIES)("bridge errors at %s", (version) => {
  const add = (h: PluginHarness, extra: Record<string, unknown> = {}, netns = NS1) =>
    h.run("bridge", "ADD", { config: net(version, extra), containerID: "ctr1", netns });

  test("an existing container interface fails before IPAM reserves anything (ADD-4)", async () => {
    const h = machine();
    await h.kernel.apply([{ op: "veth.add", ns: NS1, name: "eth0", peer: { name: "other", ns: NS1 } }]);
    const run = await add(h);
    // v1.1.1 (Debian) differs: `container veth name provided (eth0) already exists`; SPEC H-1 follows upstream main
    expect(run.json?.msg).toMatch(
      /^container veth name \("eth0"\) peer provided \("veth[0-9a-f]{8}"\) already exists$/,
    );
    expect(h.reserved("brnet")).toEqual([]);
  });

  test("a link named like the bridge that is not a bridge fails and releases the address", async () => {
    const h = machine();
    await h.kernel.apply([{ op: "veth.add", ns: HOST, name: "cni0", peer: { name: "cni0p", ns: HOST } }]);
    expect((await add(h)).json?.msg).toBe('failed to create bridge "cni0": "cni0" already exists but is not a bridge');
    expect(h.reserved("brnet")).toEqual([]);
  });

  test("a missing namespace fails with the reference's message", async () => {
    expect((await add(machine(), {}, "/var/run/netns/none")).json?.msg).toBe(
      'failed to open netns "/var/run/netns/none": no such file or directory',
    );
  });

  test("a VLAN out of range is an invalid config (code 7) with the reference's message", async () => {
    const run = await add(machine(), { vlan: 5000 });
    // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7
    expect(run.json).toMatchObject({ code: 7, msg: "invalid VLAN ID 5000 (must be between 0 and 4094)" });
  });

  test("an exhausted range fails and leaves the container untouched", async () => {
    const h = machine();
    const tiny = { ipam: { type: "host-local", ranges: [[{ subnet: "198.18.0.0/30" }]] } };
    expect((await add(h, tiny)).code).toBe(0);
    const second = await h.run("bridge", "ADD", { config: net(version, tiny), containerID: "ctr2", netns: NS2 });
    expect(second.code).toBe(1);
    expect(h.kernel.snapshot(NS2).links.map((l) => l.name)).toEqual(["lo"]);
  });

  test("an unknown IPAM type fails and changes nothing", async () => {
    const h = machine();
    const before = h.kernel.snapshot(HOST);
    const run = await add(h, { ipam: { type: "nope" } });
    expect(run.json?.msg).toBe('failed to find plugin "nope" in path [/opt/cni/bin]');
    expect(h.kernel.snapshot(HOST)).toEqual(before);
  });

  test("a kernel failure after IPAM leaves no veth and no reservation, unlike the reference (ADD-6)", async () => {
    const h = machine();
    h.kernel.failAt((op) => op.op === "addr.add" && op.ns === NS1);
    const run = await add(h);
    expect(run.code).toBe(1);
    expect(h.kernel.snapshot(NS1).links.map((l) => l.name)).toEqual(["lo"]);
    expect(h.kernel.snapshot(HOST).links.filter((l) => l.kind === "veth")).toEqual([]);
    expect(h.reserved("brnet")).toEqual([]);
  });

  // Not a skip: the case does not exist at this version, so it is not registered.
  if (version === "1.1.0")
    test("GC and STATUS go to IPAM; on an L2 network they succeed without it", async () => {
      const h = machine();
      await add(h);
      const gc = await h.run("bridge", "GC", { config: net("1.1.0", { "cni.dev/valid-attachments": [] }) });
      expect(gc.code).toBe(0);
      expect(h.reserved("brnet")).toEqual([]);
      // host-local answers "not ready" for a data dir that does not exist: the answer is IPAM's (ST-4).
      const status = await h.run("bridge", "STATUS", {
        config: net("1.1.0", {
          ipam: { type: "host-local", dataDir: "/nonexistent", ranges: [[{ subnet: "198.18.0.0/24" }]] },
        }),
      });
      expect(status.json).toMatchObject({ code: 50 });
      expect(status.json?.msg).toContain("host-local data dir");
      expect((await h.run("bridge", "STATUS", { config: net("1.1.0", { ipam: {} }) })).code).toBe(0);
    });
});
