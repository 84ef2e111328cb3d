/**
 * DEL removes only what is ours (issue 16 item 5, DEL-1): after an ADD refused because
 * CNI_IFNAME existed (ADD-4), the runtime's DEL leaves that interface alone and still
 * releases IPAM and succeeds (DEL-2); our own veth is still deleted.
 */
import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { PluginHarness } from "./plugin-harness.ts";

const NS1 = "/var/run/netns/o1";

function net(type: "bridge" | "ptp", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cniVersion: "1.1.0",
    name: "ownnet",
    type,
    bridge: "cni0",
    ipam: { type: "host-local", ranges: [[{ subnet: "198.18.0.0/24" }]] },
    ...extra,
  };
}

function machine(): PluginHarness {
  const h = new PluginHarness({ seed: 3 });
  h.kernel.addNetns(NS1);
  return h;
}
const has = (h: PluginHarness, ns: string, name: string) => h.kernel.snapshot(ns).links.some((l) => l.name === name);

describe.each(["bridge", "ptp"] as const)("%s DEL", (type) => {
  test("leaves a pre-existing interface of that name alone after a refused ADD, and succeeds", async () => {
    const h = machine();
    await h.kernel.apply([{ op: "veth.add", ns: NS1, name: "eth0", peer: { name: "other", ns: NS1 } }]);
    expect((await h.run(type, "ADD", { config: net(type), containerID: "c1", netns: NS1 })).code).toBe(1);
    const del = await h.run(type, "DEL", { config: net(type), containerID: "c1", netns: NS1 });
    expect(del.code).toBe(0);
    expect(has(h, NS1, "eth0")).toBe(true);
    expect(h.reserved("ownnet")).toEqual([]);
  });

  test("leaves a veth whose host end is not ours alone", async () => {
    const h = machine();
    const add = await h.run(type, "ADD", { config: net(type), containerID: "c1", netns: NS1 });
    expect(add.code).toBe(0);
    await h.kernel.apply([{ op: "veth.add", ns: HOST, name: "stranger0", peer: { name: "eth9", ns: NS1 } }]);
    const del = await h.run(type, "DEL", { config: net(type), containerID: "c1", netns: NS1, ifName: "eth9" });
    expect(del.code).toBe(0);
    expect(has(h, NS1, "eth9")).toBe(true);
  });

  test("deletes the veth its own ADD made and releases the address", async () => {
    const h = machine();
    const add = await h.run(type, "ADD", { config: net(type), containerID: "c1", netns: NS1 });
    const del = await h.run(type, "DEL", {
      config: net(type, { prevResult: add.json }),
      containerID: "c1",
      netns: NS1,
    });
    expect(del.code).toBe(0);
    expect(has(h, NS1, "eth0")).toBe(false);
    expect(h.reserved("ownnet")).toEqual([]);
  });
});
