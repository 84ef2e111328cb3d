/**
 * host-device on the fake kernel, through the plugin framework: ADD then DEL gives the
 * host and the container back exactly as they were (the device under its old name),
 * a failed ADD at any kernel operation does too (ADD-6), DEL twice is fine (DEL-3), and
 * CHECK notices a tampered container.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { HOST } from "@tscni/kernel";
import { hostDeviceDefinition } from "@tscni/plugins/host-device";
import { pluginMain } from "@tscni/skel";
import { PluginHarness } from "./plugin-harness.ts";

const NS = "/var/run/netns/hd-c1";
// By name and MAC only here: an empty sysfs tree.
const sys = { root: "/fake-sys", list: () => undefined, exists: () => false, linkTarget: () => undefined };

function setup(up: boolean): PluginHarness {
  const h = new PluginHarness();
  h.kernel.addNetns(NS);
  h.kernel.applySync([
    { op: "veth.add", ns: HOST, name: "nic0", mac: "02:00:00:00:00:0a", peer: { name: "nic0p", ns: HOST } },
    ...(up ? [{ op: "link.set" as const, ns: HOST, name: "nic0", up: true }] : []),
  ]);
  return h;
}

async function run(h: PluginHarness, command: string, config: Record<string, unknown>, ifName = "eth0") {
  let stdout = "";
  const env = {
    CNI_COMMAND: command,
    CNI_CONTAINERID: "c",
    CNI_NETNS: NS,
    CNI_IFNAME: ifName,
    CNI_PATH: "/opt/cni/bin",
  };
  const io = {
    env,
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s: string) => void (stdout += s),
    stderr: () => {},
  };
  const code = await pluginMain(hostDeviceDefinition(h.ports, sys), io, { sameNetns: () => false });
  return { code, json: stdout.trim() === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>) };
}

const IPAM = {
  type: "host-local",
  ranges: [[{ subnet: "198.18.40.0/24", gateway: "198.18.40.1" }]],
  routes: [{ dst: "198.18.41.0/24" }],
};
const conf = (select: Record<string, unknown>, ipam: boolean) => ({
  cniVersion: "1.1.0",
  name: "hdnet",
  type: "host-device",
  ...select,
  ...(ipam ? { ipam: IPAM } : {}),
});

describe("host-device on the fake kernel", () => {
  test("ADD moves the device in under CNI_IFNAME with its host name as alias, DEL gives it back", async () => {
    const h = setup(true);
    const before = [h.kernel.snapshot(HOST), h.kernel.snapshot(NS)];
    const add = await run(h, "ADD", conf({ device: "nic0" }, true));
    expect(add.code).toBe(0);
    expect(add.json?.interfaces).toEqual([{ name: "eth0", mac: "02:00:00:00:00:0a", sandbox: NS }]);
    expect(await h.kernel.link(HOST, "nic0")).toBeUndefined();
    const moved = await h.kernel.link(NS, "eth0");
    expect(moved).toMatchObject({ alias: "nic0", up: true, mac: "02:00:00:00:00:0a" });
    expect((await h.kernel.addresses(NS, "eth0")).map((a) => a.cidr)).toContain("198.18.40.2/24");
    expect((await run(h, "CHECK", { ...conf({ device: "nic0" }, true), prevResult: add.json })).code).toBe(0);
    expect((await run(h, "DEL", conf({ device: "nic0" }, true))).code).toBe(0);
    expect(await h.kernel.link(HOST, "nic0")).toMatchObject({ name: "nic0", mac: "02:00:00:00:00:0a" });
    expect((await h.kernel.link(HOST, "nic0"))?.alias).toBeUndefined();
    expect(h.reserved("hdnet")).toEqual([]);
    // The device comes back down, as the reference leaves it; otherwise as before.
    h.kernel.applySync([{ op: "link.set", ns: HOST, name: "nic0", up: true }]);
    expect(stripIndexes([h.kernel.snapshot(HOST), h.kernel.snapshot(NS)])).toEqual(stripIndexes(before));
    expect((await run(h, "DEL", conf({ device: "nic0" }, true))).code).toBe(0);
  });

  test("CHECK fails when the container's device lost its address or its MAC changed", async () => {
    const h = setup(false);
    const add = await run(h, "ADD", conf({ hwaddr: "02:00:00:00:00:0a" }, true));
    expect(add.code).toBe(0);
    const checkConf = { ...conf({ hwaddr: "02:00:00:00:00:0a" }, true), prevResult: add.json };
    h.kernel.applySync([{ op: "addr.del", ns: NS, dev: "eth0", cidr: "198.18.40.2/24" }]);
    expect((await run(h, "CHECK", checkConf)).json?.msg).toBe("Failed to match addr 198.18.40.2/24 on interface eth0");
    h.kernel.applySync([
      { op: "addr.add", ns: NS, dev: "eth0", cidr: "198.18.40.2/24" },
      { op: "link.set", ns: NS, name: "eth0", mac: "02:00:00:00:00:0b" },
    ]);
    expect((await run(h, "CHECK", checkConf)).json?.msg).toBe(
      "Interface eth0 Mac 02:00:00:00:00:0a doesn't match container Mac: 02:00:00:00:00:0b",
    );
  });

  test("DEL of a link without an alias fails with the reference's message", async () => {
    const h = setup(false);
    h.kernel.applySync([
      { op: "link.move", ns: HOST, name: "nic0", to: NS },
      { op: "link.set", ns: NS, name: "nic0", newName: "eth0" },
    ]);
    expect((await run(h, "DEL", conf({ device: "nic0" }, false))).json?.msg).toBe(
      'failed to find original ifname for "eth0" (alias is not set)',
    );
  });

  test("any failing kernel operation of an ADD leaves host and container as they were, and ADD then DEL does too", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom("eth0", "net1", "nic0"),
        fc.integer({ min: 0, max: 25 }),
        async (up, byMac, ipam, ifName, failAt) => {
          const h = setup(up);
          const before = stripIndexes([h.kernel.snapshot(HOST), h.kernel.snapshot(NS)]);
          const c = conf(byMac ? { hwaddr: "02:00:00:00:00:0a" } : { device: "nic0" }, ipam);
          const start = h.kernel.opCount;
          h.kernel.failAt((_op, i) => i === start + failAt);
          const add = await run(h, "ADD", c, ifName);
          h.kernel.clearFailures();
          if (add.code === 0) expect((await run(h, "DEL", c, ifName)).code).toBe(0);
          // DEL leaves the device down (as the reference); a failed ADD brings it back up.
          if (add.code === 0 && up) h.kernel.applySync([{ op: "link.set", ns: HOST, name: "nic0", up: true }]);
          expect(stripIndexes([h.kernel.snapshot(HOST), h.kernel.snapshot(NS)])).toEqual(before);
          expect(h.reserved("hdnet")).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** Snapshots without interface indexes, which a move renumbers. */
function stripIndexes(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (k, v) => (k === "index" || k === "peerIndex" ? undefined : v)));
}
