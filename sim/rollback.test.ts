/**
 * A failure injected at each kernel operation of an ADD, one by one, for bridge (with a
 * VLAN gateway, so the shared steps are exercised too) and ptp on a dual-stack network:
 * the ADD fails, the container holds only `lo`, the host has no veth left, and IPAM holds
 * nothing (ADD-6). Only the bridge and its VLAN gateway may stay, and the next ADD works.
 */
import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { hostWithoutShared } from "./attachment-model.ts";
import { PluginHarness } from "./plugin-harness.ts";

const NS = "/var/run/netns/rb";

const NETWORKS = {
  bridge: {
    config: {
      cniVersion: "1.1.0",
      name: "rbnet",
      type: "bridge",
      bridge: "cni0",
      isDefaultGateway: true,
      vlan: 10,
      preserveDefaultVlan: false,
      mtu: 1400,
      ipam: { type: "host-local", ranges: [[{ subnet: "198.18.2.0/24" }], [{ subnet: "2001:db8:2::/64" }]] },
    },
    shared: ["cni0"],
  },
  ptp: {
    config: {
      cniVersion: "1.1.0",
      name: "rbnet",
      type: "ptp",
      ipam: {
        type: "host-local",
        ranges: [[{ subnet: "198.18.3.0/24" }], [{ subnet: "2001:db8:3::/64" }]],
        routes: [{ dst: "0.0.0.0/0" }],
      },
    },
    shared: [],
  },
} as const;

function machine(): PluginHarness {
  const h = new PluginHarness({ seed: 5 });
  h.kernel.addNetns(NS);
  return h;
}

describe.each(["bridge", "ptp"] as const)("%s rollback", (plugin) => {
  const { config, shared } = NETWORKS[plugin];

  test("a failure at each kernel operation of an ADD leaves nothing behind", async () => {
    const probe = machine();
    const start = probe.kernel.opCount;
    expect((await probe.run(plugin, "ADD", { config, containerID: "c", netns: NS })).code).toBe(0);
    const total = probe.kernel.opCount - start;
    expect(total).toBeGreaterThan(5);
    for (let k = 0; k < total; k++) {
      const h = machine();
      const baseline = hostWithoutShared(h.kernel.snapshot(HOST), shared);
      const target = h.kernel.opCount + k;
      h.kernel.failAt((_op, index) => index === target);
      const run = await h.run(plugin, "ADD", { config, containerID: "c", netns: NS });
      h.kernel.clearFailures();
      expect({ k, code: run.code }).toEqual({ k, code: 1 });
      expect({ k, links: h.kernel.snapshot(NS).links.map((l) => l.name) }).toEqual({ k, links: ["lo"] });
      expect({ k, host: hostWithoutShared(h.kernel.snapshot(HOST), shared) }).toEqual({ k, host: baseline });
      expect({ k, reserved: h.reserved("rbnet") }).toEqual({ k, reserved: [] });
      // What stayed is usable: the same ADD now succeeds.
      expect({ k, retry: (await h.run(plugin, "ADD", { config, containerID: "c", netns: NS })).json?.msg }).toEqual({
        k,
        retry: undefined,
      });
    }
  });
});
