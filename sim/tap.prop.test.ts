/**
 * tap on the fake kernel, through the plugin framework: ADD makes the tap as configured,
 * ADD then DEL, and an ADD failing at any kernel operation, leave the container as it was
 * with no address held (ADD-6, DEL-3); CHECK notices a lost address.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { tapDefinition } from "@tscni/plugins/tap";
import { pluginMain } from "@tscni/skel";
import { PluginHarness } from "./plugin-harness.ts";

const NS = "/var/run/netns/tap-c1";

function setup(bridge: boolean): PluginHarness {
  const h = new PluginHarness();
  h.kernel.addNetns(NS);
  if (bridge) h.kernel.applySync([{ op: "bridge.add", ns: NS, name: "br0" }]);
  return h;
}

async function run(h: PluginHarness, command: string, config: Record<string, unknown>, cniArgs = "") {
  let stdout = "";
  const env = {
    CNI_COMMAND: command,
    CNI_CONTAINERID: "c",
    CNI_NETNS: NS,
    CNI_IFNAME: "tap0",
    CNI_PATH: "/opt/cni/bin",
    CNI_ARGS: cniArgs,
  };
  const io = {
    env,
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s: string) => void (stdout += s),
    stderr: () => {},
  };
  const code = await pluginMain(tapDefinition(h.ports), io, { sameNetns: () => false });
  return { code, json: stdout.trim() === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>) };
}

const IPAM = {
  type: "host-local",
  ranges: [[{ subnet: "198.18.46.0/24", gateway: "198.18.46.1" }]],
  routes: [{ dst: "198.18.47.0/24" }],
};
const conf = (extra: Record<string, unknown>) => ({ cniVersion: "1.1.0", name: "tapnet", type: "tap", ...extra });

describe("tap on the fake kernel", () => {
  test("ADD makes the tap with its owner, group, queues, MTU and MAC, up on its bridge; DEL removes it", async () => {
    const h = setup(true);
    const c = conf({
      owner: 1000,
      group: 1001,
      multiQueue: true,
      mtu: 1400,
      mac: "02:00:00:00:00:3a",
      bridge: "br0",
      ipam: IPAM,
    });
    const add = await run(h, "ADD", c);
    expect(add.code).toBe(0);
    expect(add.json?.interfaces).toEqual([{ name: "tap0", mac: "02:00:00:00:00:3a", sandbox: NS }]);
    expect(h.kernel.log.find((op) => op.op === "tap.add")).toEqual({
      op: "tap.add",
      ns: NS,
      name: "tap0",
      owner: 1000,
      group: 1001,
      multiQueue: true,
      vnetHdr: true,
    });
    expect(await h.kernel.link(NS, "tap0")).toMatchObject({ kind: "tun", mtu: 1400, up: true, master: "br0" });
    expect((await h.kernel.addresses(NS, "tap0")).map((a) => a.cidr)).toContain("198.18.46.2/24");
    expect((await run(h, "CHECK", { ...c, prevResult: add.json })).code).toBe(0);
    h.kernel.applySync([{ op: "addr.del", ns: NS, dev: "tap0", cidr: "198.18.46.2/24" }]);
    expect((await run(h, "CHECK", { ...c, prevResult: add.json })).json?.msg).toBe(
      "Failed to match addr 198.18.46.2/24 on interface tap0",
    );
    expect((await run(h, "DEL", c)).code).toBe(0);
    expect(await h.kernel.link(NS, "tap0")).toBeUndefined();
    expect((await run(h, "DEL", c)).code).toBe(0);
  });

  test("the MAC of CNI_ARGS is used", async () => {
    const h = setup(false);
    const add = await run(h, "ADD", conf({}), "IgnoreUnknown=1;MAC=02:00:00:00:00:3b");
    expect((add.json?.interfaces as { mac: string }[])[0]?.mac).toBe("02:00:00:00:00:3b");
  });

  test("ADD then DEL, or an ADD failing at any kernel operation, leaves the container as it was", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 25 }),
        async (bridge, ipam, mtu, failAt) => {
          const h = setup(bridge);
          const before = h.kernel.snapshot(NS);
          const c = conf({
            ...(bridge ? { bridge: "br0" } : {}),
            ...(ipam ? { ipam: IPAM } : {}),
            ...(mtu ? { mtu: 1280 } : {}),
          });
          const start = h.kernel.opCount;
          h.kernel.failAt((_op, i) => i === start + failAt);
          const add = await run(h, "ADD", c);
          h.kernel.clearFailures();
          if (add.code === 0) expect((await run(h, "DEL", c)).code).toBe(0);
          expect(h.kernel.snapshot(NS)).toEqual(before);
          expect(h.reserved("tapnet")).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
