/**
 * bridge `macspoofchk` on the fake kernel and fake firewall (SPEC.md §8.1,
 * pkg/link/spoofcheck.go): ADD installs the per-port nft chains in one transaction, DEL
 * and a failed ADD remove them, and what other ports installed stays.
 */
import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { PluginHarness, resultInterface } from "./plugin-harness.ts";

const NS1 = "/var/run/netns/s1";
const NS2 = "/var/run/netns/s2";
const net = (extra: Record<string, unknown> = {}) => ({
  cniVersion: "1.0.0",
  name: "spoofnet",
  type: "bridge",
  bridge: "cni0",
  isGateway: true,
  macspoofchk: true,
  ipam: { type: "host-local", ranges: [[{ subnet: "198.18.0.0/24" }]] },
  ...extra,
});

function machine(): PluginHarness {
  const h = new PluginHarness({ seed: 3 });
  h.kernel.addNetns(NS1);
  h.kernel.addNetns(NS2);
  return h;
}

describe("bridge macspoofchk", () => {
  test("ADD lets only the container's MAC in from its host port, in one nft transaction", async () => {
    const h = machine();
    const add = await h.run("bridge", "ADD", { config: net(), containerID: "ctr1", netns: NS1 });
    expect(add.json?.msg).toBeUndefined();
    const hostVeth = resultInterface(add.json, 1)!.name;
    const mac = resultInterface(add.json, 2)!.mac!;
    expect(h.firewall.transactions.length).toBe(1);
    expect(h.firewall.dump().nftables).toEqual({
      "bridge nat": {
        PREROUTING: [`iifname "${hostVeth}" jump cni-br-iface-ctr1-eth0 comment "macspoofchk-ctr1-eth0"`],
        "cni-br-iface-ctr1-eth0": ['jump cni-br-iface-ctr1-eth0-mac comment "macspoofchk-ctr1-eth0"'],
        "cni-br-iface-ctr1-eth0-mac": [
          `ether saddr ${mac} return comment "macspoofchk-ctr1-eth0"`,
          'drop comment "macspoofchk-ctr1-eth0"',
        ],
      },
    });
  });

  test("DEL removes this port's chains and jump, keeps another port's, and can be repeated", async () => {
    const h = machine();
    await h.run("bridge", "ADD", { config: net(), containerID: "ctr1", netns: NS1 });
    const alone = h.firewall.dump();
    await h.run("bridge", "ADD", { config: net(), containerID: "ctr2", netns: NS2 });
    for (let i = 0; i < 2; i++)
      expect((await h.run("bridge", "DEL", { config: net(), containerID: "ctr2", netns: NS2 })).code).toBe(0);
    expect(h.firewall.dump()).toEqual(alone);
    await h.run("bridge", "DEL", { config: net(), containerID: "ctr1", netns: NS1 });
    // The table and base chain stay for later ports, as the reference leaves them.
    expect(h.firewall.dump().nftables).toEqual({ "bridge nat": { PREROUTING: [] } });
  });

  test("a failed ADD after the spoof check leaves no chain, no link and no address", async () => {
    const h = machine();
    h.firewall.failWhen = (op) =>
      op.op === "nft.rule.add" && op.rule === "drop" ? "nft: Could not process rule" : undefined;
    const add = await h.run("bridge", "ADD", { config: net(), containerID: "ctr1", netns: NS1 });
    expect(add.code).toBe(1);
    expect(add.json?.msg).toBe("failed to setup spoof-check: nft: Could not process rule");
    h.firewall.failWhen = undefined;
    expect(h.firewall.dump().nftables["bridge nat"]?.["cni-br-iface-ctr1-eth0"]).toBeUndefined();
    expect(h.kernel.snapshot(HOST).links.filter((l) => l.name.startsWith("veth"))).toEqual([]);
    expect(h.reserved("spoofnet")).toEqual([]);
  });

  test("without macspoofchk the firewall is never touched", async () => {
    const h = machine();
    await h.run("bridge", "ADD", { config: net({ macspoofchk: false }), containerID: "ctr1", netns: NS1 });
    await h.run("bridge", "DEL", { config: net({ macspoofchk: false }), containerID: "ctr1", netns: NS1 });
    expect(h.firewall.transactions).toEqual([]);
  });

  test("CHECK passes after ADD and fails once the MAC chain is gone (CHK-3)", async () => {
    const h = machine();
    const add = await h.run("bridge", "ADD", { config: net(), containerID: "ctr1", netns: NS1 });
    const prev = { prevResult: add.json };
    expect((await h.run("bridge", "CHECK", { config: net(prev), containerID: "ctr1", netns: NS1 })).code).toBe(0);
    await h.firewall.apply([
      { op: "nft.chain.flush", family: "bridge", table: "nat", chain: "cni-br-iface-ctr1-eth0-mac" },
    ]);
    const check = await h.run("bridge", "CHECK", { config: net(prev), containerID: "ctr1", netns: NS1 });
    expect(check.json?.msg).toBe(
      `spoof-check: chain cni-br-iface-ctr1-eth0-mac does not pass only ${resultInterface(add.json, 2)!.mac}`,
    );
  });
});
