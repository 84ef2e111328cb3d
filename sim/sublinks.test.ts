/**
 * Examples of the interface plugins on the fake kernel: the reference's defaults and
 * messages (master from the default route, the MTU bound, chained ipvlan, CHECK's
 * wording) and DEL leaving a foreign interface alone (DEL-1, issue 16 item 5).
 */
import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { CONTAINERS, SublinkHarness } from "./sublink-harness.ts";

const ipam = { type: "host-local", ranges: [[{ subnet: "198.18.8.0/24" }]] };
const mac = { cniVersion: "1.0.0", name: "subnet", type: "macvlan", ipam };

describe("the interface plugins on the fake kernel", () => {
  test("macvlan takes the default route's interface as master and names it in nothing but the kernel", async () => {
    const h = new SublinkHarness();
    const add = await h.run("macvlan", "ADD", { config: mac });
    expect(add.code).toBe(0);
    expect(h.kernel.log.find((op) => op.op === "macvlan.add")).toMatchObject({
      ns: HOST,
      parent: "vp0",
      mode: "bridge",
      into: CONTAINERS[0],
    });
    expect(add.json).toMatchObject({
      interfaces: [{ name: "eth0", sandbox: CONTAINERS[0] }],
      ips: [{ address: "198.18.8.2/24", interface: 0 }],
    });
    expect(h.snapshots()[1]?.sysctls["net.ipv4.conf.eth0.arp_notify"]).toBe("1");
  });

  test("an MTU above the master's fails with the reference's message, before anything is made", async () => {
    const h = new SublinkHarness();
    const before = h.snapshots();
    const add = await h.run("macvlan", "ADD", { config: { ...mac, mtu: 9000 } });
    expect(add.json).toMatchObject({ code: 999, msg: "invalid MTU 9000, must be [0, master MTU(1500)]" });
    expect(h.snapshots()).toEqual(before);
  });

  test("a missing master fails as Go's netlink does; ipvlan names the master", async () => {
    const h = new SublinkHarness();
    expect((await h.run("macvlan", "ADD", { config: { ...mac, master: "nope" } })).json).toMatchObject({
      code: 999,
      msg: "Link not found",
    });
    expect((await h.run("ipvlan", "ADD", { config: { ...mac, type: "ipvlan", master: "nope" } })).json).toMatchObject({
      code: 999,
      msg: 'failed to lookup master "nope": Link not found',
    });
    expect(h.reserved("subnet")).toEqual([]);
  });

  test("an L2 macvlan is only brought up, and its result lists the interface alone", async () => {
    const h = new SublinkHarness();
    const add = await h.run("macvlan", "ADD", {
      config: { cniVersion: "1.0.0", name: "l2", type: "macvlan", mode: "private" },
    });
    expect(add.json).toEqual({
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0", mac: expect.any(String), sandbox: CONTAINERS[0] }],
    });
    expect(await h.kernel.link(CONTAINERS[0], "eth0")).toMatchObject({
      kind: "macvlan",
      macvlanMode: "private",
      up: true,
    });
  });

  test("ipvlan chained without IPAM takes the previous result's interface as master and applies its IPs", async () => {
    const h = new SublinkHarness();
    const prevResult = {
      cniVersion: "1.0.0",
      interfaces: [{ name: "vp0" }],
      ips: [{ address: "198.18.77.5/24", gateway: "198.18.77.1", interface: 0 }],
    };
    const add = await h.run("ipvlan", "ADD", {
      config: { cniVersion: "1.0.0", name: "ch", type: "ipvlan", prevResult },
    });
    expect(add.json).toMatchObject({
      interfaces: [{ name: "eth0", sandbox: CONTAINERS[0] }],
      ips: [{ address: "198.18.77.5/24", interface: 0 }],
    });
    expect((await h.kernel.addresses(CONTAINERS[0], "eth0")).map((a) => a.cidr)).toContain("198.18.77.5/24");
  });

  test("CHECK reports a mode that differs from the config, and a link of another kind, in the reference's words", async () => {
    const h = new SublinkHarness();
    const add = await h.run("macvlan", "ADD", { config: mac });
    const check = await h.run("macvlan", "CHECK", { config: { ...mac, mode: "vepa", prevResult: add.json } });
    expect(check.json?.msg).toBe("container macvlan mode bridge does not match expected value: vepa");
    h.kernel.applySync([
      { op: "link.del", ns: CONTAINERS[0], name: "eth0" },
      { op: "dummy.add", ns: CONTAINERS[0], name: "eth0" },
    ]);
    expect((await h.run("macvlan", "CHECK", { config: { ...mac, prevResult: add.json } })).json?.msg).toBe(
      "error: Container interface eth0 not of type macvlan",
    );
    expect((await h.run("macvlan", "CHECK", { config: mac })).json?.msg).toBe("required prevResult missing");
  });

  test("DEL leaves an interface of another kind alone, still releasing the address (DEL-1)", async () => {
    const h = new SublinkHarness();
    h.kernel.applySync([{ op: "dummy.add", ns: CONTAINERS[0], name: "eth0" }]);
    const add = await h.run("macvlan", "ADD", { config: mac });
    expect(add.json?.msg).toBe('failed to rename macvlan to "eth0": file exists');
    expect((await h.run("macvlan", "DEL", { config: mac })).code).toBe(0);
    expect((await h.kernel.link(CONTAINERS[0], "eth0"))?.kind).toBe("dummy");
    expect(h.warnings.join("\n")).toContain("left eth0");
    expect(h.reserved("subnet")).toEqual([]);
  });

  test("DEL deletes a macvlan only with the MAC the cached result records", async () => {
    const h = new SublinkHarness();
    const add = await h.run("macvlan", "ADD", { config: mac });
    const other = { ...add.json, interfaces: [{ name: "eth0", mac: "02:00:00:00:99:99", sandbox: CONTAINERS[0] }] };
    await h.run("macvlan", "DEL", { config: { ...mac, prevResult: other } });
    expect(await h.kernel.link(CONTAINERS[0], "eth0")).toBeDefined();
    await h.run("macvlan", "DEL", { config: { ...mac, prevResult: add.json } });
    expect(await h.kernel.link(CONTAINERS[0], "eth0")).toBeUndefined();
  });

  test("vlan wraps IPAM's failure as the reference and removes the link it made", async () => {
    const h = new SublinkHarness();
    const before = h.snapshots();
    const add = await h.run("vlan", "ADD", {
      config: { cniVersion: "1.0.0", name: "v", type: "vlan", master: "vp0", vlanId: 5, ipam: { type: "nope" } },
    });
    expect(add.json?.msg).toBe('failed to execute IPAM delegate: failed to find plugin "nope" in path [/opt/cni/bin]');
    expect(h.snapshots()).toEqual(before);
  });

  test("STATUS goes to IPAM only where the reference's does: macvlan and ipvlan with a type, vlan and dummy always (ST-4)", async () => {
    const h = new SublinkHarness();
    const untyped = (type: string) => ({ cniVersion: "1.1.0", name: "st", type, master: "vp0" });
    expect((await h.run("macvlan", "STATUS", { config: untyped("macvlan") })).code).toBe(0);
    expect((await h.run("ipvlan", "STATUS", { config: untyped("ipvlan") })).code).toBe(0);
    expect((await h.run("vlan", "STATUS", { config: untyped("vlan") })).json?.msg).toBe("no plugin name provided");
    expect((await h.run("dummy", "STATUS", { config: untyped("dummy") })).json?.msg).toBe("no plugin name provided");
    expect((await h.run("macvlan", "STATUS", { config: { ...untyped("macvlan"), ipam: { type: "nope" } } })).code).toBe(
      1,
    );
  });

  test("two macvlans on one master live side by side in two containers; deleting the master's peer removes both", async () => {
    const h = new SublinkHarness();
    expect((await h.run("macvlan", "ADD", { config: mac, containerID: "a", netns: CONTAINERS[0] })).code).toBe(0);
    expect((await h.run("macvlan", "ADD", { config: mac, containerID: "b", netns: CONTAINERS[1] })).code).toBe(0);
    h.kernel.applySync([{ op: "link.del", ns: HOST, name: "vp1" }]);
    expect(await h.kernel.link(CONTAINERS[0], "eth0")).toBeUndefined();
    expect(await h.kernel.link(CONTAINERS[1], "eth0")).toBeUndefined();
  });
});
