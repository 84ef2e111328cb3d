/**
 * The ptp plugin on the fake kernel, through the plugin framework: the ADD/CHECK/DEL
 * contract for every spec version, the routing it sets up, and its errors.
 */
import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { VERSIONS, versionAtLeast } from "@tscni/spec";
import { PluginHarness, resultAddresses, resultInterface } from "./plugin-harness.ts";
import { canReach } from "@tscni/kernel/fake";

const NS1 = "/var/run/netns/p1";
const NS2 = "/var/run/netns/p2";

function net(version: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cniVersion: version,
    name: "ptpnet",
    type: "ptp",
    ipam: {
      type: "host-local",
      ranges: [[{ subnet: "198.18.8.0/24" }], [{ subnet: "2001:db8:8::/64" }]],
      routes: [{ dst: "0.0.0.0/0" }, { dst: "::/0" }],
    },
    ...extra,
  };
}

function machine(seed = 11): PluginHarness {
  const h = new PluginHarness({ seed });
  h.kernel.addNetns(NS1);
  h.kernel.addNetns(NS2);
  return h;
}

const routesOf = (h: PluginHarness, ns: string) => h.kernel.snapshot(ns).routes;

describe.each([...VERSIONS])("ptp at %s", (version) => {
  test("ADD routes the container through the host and prints the result in the config's version", async () => {
    const h = machine();
    const add = await h.run("ptp", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
    expect(add.code).toBe(0);
    expect(add.json?.cniVersion).toBe(version);
    expect(resultAddresses(add.json)).toEqual(["198.18.8.2/24", "2001:db8:8::2/64"]);
    const routes = routesOf(h, NS1);
    // The automatic subnet route is replaced by one through the gateway (§8.2 step 5).
    expect(routes.find((r) => r.dst === "198.18.8.0/24")).toMatchObject({
      gw: "198.18.8.1",
      dev: "eth0",
      src: "198.18.8.2",
    });
    expect(routes.find((r) => r.dst === "198.18.8.1/32")).toMatchObject({ dev: "eth0", scope: "link" });
    expect(routes.find((r) => r.dst === "2001:db8:8::/64")).toMatchObject({ gw: "2001:db8:8::1" });
    const hostVeth = h.kernel.peerOf(NS1, "eth0")!.name;
    const hostAddrs = h.kernel
      .snapshot(HOST)
      .addresses.filter((a) => a.dev === hostVeth)
      .map((a) => a.cidr);
    expect(hostAddrs).toEqual(expect.arrayContaining(["198.18.8.1/32", "2001:db8:8::1/128"]));
    expect(routesOf(h, HOST).find((r) => r.dst === "198.18.8.2/32")?.dev).toBe(hostVeth);
    expect(h.kernel.snapshot(HOST).sysctls["net.ipv4.ip_forward"]).toBe("1");
    if (versionAtLeast(version, "0.3.0")) {
      expect(resultInterface(add.json, 0)?.name).toBe(hostVeth);
      expect(resultInterface(add.json, 1)?.sandbox).toBe(NS1);
    }
  });

  test("two containers reach each other through the host, over both families", async () => {
    const h = machine();
    const a = await h.run("ptp", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
    const b = await h.run("ptp", "ADD", { config: net(version), containerID: "ctr2", netns: NS2 });
    for (const cidr of resultAddresses(b.json)) expect(canReach(h.kernel, NS1, cidr.split("/")[0]!)).toBe(true);
    for (const cidr of resultAddresses(a.json)) expect(canReach(h.kernel, NS2, cidr.split("/")[0]!)).toBe(true);
  });

  test("DEL releases the addresses, removes the link and can be repeated, even without the namespace", async () => {
    const h = machine();
    const add = await h.run("ptp", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
    const conf = net(version, versionAtLeast(version, "0.4.0") ? { prevResult: add.json } : {});
    expect((await h.run("ptp", "DEL", { config: conf, containerID: "ctr1", netns: NS1 })).code).toBe(0);
    expect(h.kernel.snapshot(NS1).links.map((l) => l.name)).toEqual(["lo"]);
    expect(h.reserved("ptpnet")).toEqual([]);
    expect(routesOf(h, HOST).some((r) => r.dst === "198.18.8.2/32")).toBe(false);
    h.kernel.deleteNetns(NS1);
    expect((await h.run("ptp", "DEL", { config: conf, containerID: "ctr1", netns: NS1 })).code).toBe(0);
  });

  // Not a skip: the case does not exist at this version, so it is not registered.
  if (versionAtLeast(version, "0.4.0"))
    test("CHECK passes after ADD and fails once a route is gone (CHK-3)", async () => {
      const h = machine();
      const add = await h.run("ptp", "ADD", { config: net(version), containerID: "ctr1", netns: NS1 });
      const check = () =>
        h.run("ptp", "CHECK", { config: net(version, { prevResult: add.json }), containerID: "ctr1", netns: NS1 });
      expect((await check()).code).toBe(0);
      await h.kernel.apply([{ op: "route.del", ns: NS1, dst: "0.0.0.0/0" }]);
      expect((await check()).json?.msg).toBe(
        "Expected Route {Dst:{IP:0.0.0.0 Mask:00000000} GW:<nil>} not found in routing table",
      );
    });
});

describe.each(["0.2.0", "0.4.0", "1.1.0"])("ptp at %s", (version) => {
  const add = (h: PluginHarness, extra: Record<string, unknown> = {}, netns = NS1) =>
    h.run("ptp", "ADD", { config: net(version, extra), containerID: "ctr1", netns });

  test("mtu applies to both ends", async () => {
    const h = machine();
    await add(h, { mtu: 1280 });
    const hostVeth = h.kernel.peerOf(NS1, "eth0")!.name;
    expect(h.kernel.snapshot(NS1).links.find((l) => l.name === "eth0")?.mtu).toBe(1280);
    expect(h.kernel.snapshot(HOST).links.find((l) => l.name === hostVeth)?.mtu).toBe(1280);
  });

  test("an unknown ipMasqBackend is refused with code 7 before IPAM; nothing is reserved", async () => {
    const h = machine();
    const run = await add(h, { ipMasq: true, ipMasqBackend: "ebtables" });
    expect(run.json).toMatchObject({ code: 7, msg: 'unknown ipmasq backend "ebtables"' });
    expect(h.reserved("ptpnet")).toEqual([]);
  });

  test("an empty IPAM type fails ADD with the reference's message", async () => {
    expect((await add(machine(), { ipam: {} })).json?.msg).toBe("no plugin name provided");
  });

  test("an existing container interface fails after IPAM, which is released again (ADD-4, ADD-6)", async () => {
    const h = machine();
    await h.kernel.apply([{ op: "veth.add", ns: NS1, name: "eth0", peer: { name: "other", ns: NS1 } }]);
    // v1.1.1 (Debian) differs: `container veth name provided (eth0) already exists`; SPEC H-1 follows upstream main
    expect((await add(h)).json?.msg).toMatch(
      /^container veth name \("eth0"\) peer provided \("veth[0-9a-f]{8}"\) already exists$/,
    );
    expect(h.reserved("ptpnet")).toEqual([]);
  });

  test("a failure while wiring the host end leaves no interface and no reservation (ADD-6)", async () => {
    const h = machine();
    h.kernel.failAt((op) => op.op === "route.add" && op.ns === HOST);
    expect((await add(h)).code).toBe(1);
    expect(h.kernel.snapshot(NS1).links.map((l) => l.name)).toEqual(["lo"]);
    expect(h.kernel.snapshot(HOST).links.filter((l) => l.kind === "veth")).toEqual([]);
    expect(h.reserved("ptpnet")).toEqual([]);
  });
});

describe("ptp at 1.1.0", () => {
  const add = (h: PluginHarness, extra: Record<string, unknown> = {}, netns = NS1) =>
    h.run("ptp", "ADD", { config: net("1.1.0", extra), containerID: "ctr1", netns });

  test("STATUS goes to IPAM even with an empty type, failing as the reference (§8.2)", async () => {
    expect((await machine().run("ptp", "STATUS", { config: net("1.1.0", { ipam: {} }) })).json?.msg).toBe(
      "no plugin name provided",
    );
  });

  test("CHECK without a prevResult fails with the reference's message", async () => {
    const h = machine();
    await add(h);
    expect((await h.run("ptp", "CHECK", { config: net("1.1.0"), containerID: "ctr1", netns: NS1 })).json?.msg).toBe(
      "ptp: Required prevResult missing",
    );
  });

  test("CHECK fails when the container MAC changed", async () => {
    const h = machine();
    const run = await add(h);
    await h.kernel.apply([{ op: "link.set", ns: NS1, name: "eth0", mac: "0a:00:00:00:00:42" }]);
    const check = await h.run("ptp", "CHECK", {
      config: net("1.1.0", { prevResult: run.json }),
      containerID: "ctr1",
      netns: NS1,
    });
    expect(check.json?.msg).toMatch(/^ptp: Interface eth0 Mac .* doesn't match container Mac: 0a:00:00:00:00:42$/);
  });

  test("GC releases reservations outside the valid attachments (GC-4)", async () => {
    const h = machine();
    await add(h);
    expect(
      (
        await h.run("ptp", "GC", {
          config: net("1.1.0", { "cni.dev/valid-attachments": [{ containerID: "ctr1", ifname: "eth0" }] }),
        })
      ).code,
    ).toBe(0);
    expect(h.reserved("ptpnet")).toHaveLength(2);
    expect((await h.run("ptp", "GC", { config: net("1.1.0", { "cni.dev/valid-attachments": [] }) })).code).toBe(0);
    expect(h.reserved("ptpnet")).toEqual([]);
  });
});
