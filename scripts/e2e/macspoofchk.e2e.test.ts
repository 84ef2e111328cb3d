/**
 * End-to-end: bridge `macspoofchk` (SPEC.md §8.1) on the real kernel, through the compiled
 * binary, in throwaway namespaces: a container that changes its MAC can no longer talk
 * through the bridge, the honest one still can, and DEL removes the port's nft chains.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { canUseNetns } from "../lib/netns.ts";
import { BIN_DIR, World, callPlugin, pingUntil, sh } from "./harness.ts";

const root = canUseNetns();
const built = existsSync(join(BIN_DIR, "bridge"));
if (!root) console.warn("scripts/e2e: not root, skipping the macspoofchk real-kernel tests");
else if (!built) console.warn("scripts/e2e: dist/bin/bridge missing: run `npm run build`");
const run = root && built ? describe : describe.skip;

run("bridge macspoofchk on the real kernel", () => {
  let w: World;
  const config = () => ({
    cniVersion: "1.0.0",
    name: "e2e-spoof",
    type: "bridge",
    bridge: "tscnisp0",
    isGateway: true,
    macspoofchk: true,
    ipam: { type: "host-local", ranges: [[{ subnet: "198.18.34.0/24" }]], dataDir: join(w.dir, "ipam") },
  });
  const ips: string[] = [];
  const nftTable = async () => (await sh(w.host, ["nft", "list", "table", "bridge", "nat"])).stdout;

  beforeAll(async () => {
    w = await World.create("e2e-spoof", 2);
  });
  afterAll(async () => {
    await w.close();
  });

  test("ADD installs the spoof check; both containers talk while their MACs are their own", async () => {
    for (const i of [0, 1]) {
      const r = await callPlugin(w.host, {
        plugin: "bridge",
        command: "ADD",
        containerID: `spoof${i}`,
        netns: w.netns(i),
        config: config(),
      });
      expect(r.stdout).not.toContain('"code"');
      ips.push((JSON.parse(r.stdout) as { ips: { address: string }[] }).ips[0]!.address.split("/")[0]!);
      // CHECK reads the rules back through nft and finds them (CHK-3).
      const check = await callPlugin(w.host, {
        plugin: "bridge",
        command: "CHECK",
        containerID: `spoof${i}`,
        netns: w.netns(i),
        config: { ...config(), prevResult: JSON.parse(r.stdout) },
      });
      expect(check.stdout).toBe("");
    }
    const table = await nftTable();
    expect(table).toContain('jump cni-br-iface-spoof1-eth0 comment "macspoofchk-spoof1-eth0"');
    expect(table).toMatch(/ether saddr [0-9a-f:]{17} return comment "macspoofchk-spoof0-eth0"/);
    expect(await pingUntil(w.containers[1]!, ips[0]!)).toBe(true);
  });

  test("a container that changes its MAC is cut off; the honest one still reaches the gateway", async () => {
    const c1 = w.containers[1]!;
    for (const cmd of [
      ["ip", "link", "set", "eth0", "down"],
      ["ip", "link", "set", "eth0", "address", "02:00:c6:12:22:99"],
      ["ip", "link", "set", "eth0", "up"],
      ["ip", "neigh", "flush", "all"],
    ]) {
      expect((await sh(c1, cmd)).code).toBe(0);
    }
    await sh(w.containers[0]!, ["ip", "neigh", "flush", "all"]);
    expect(await pingUntil(c1, ips[0]!, 3)).toBe(false);
    expect(await pingUntil(c1, "198.18.34.1", 2)).toBe(false);
    expect(await pingUntil(w.containers[0]!, "198.18.34.1")).toBe(true);
  });

  test("DEL removes the port's chains and its jump, and DEL again succeeds", async () => {
    for (let n = 0; n < 2; n++) {
      const r = await callPlugin(w.host, {
        plugin: "bridge",
        command: "DEL",
        containerID: "spoof1",
        netns: w.netns(1),
        config: config(),
      });
      expect(r.code).toBe(0);
    }
    const table = await nftTable();
    expect(table).not.toContain("spoof1");
    expect(table).toContain("macspoofchk-spoof0-eth0");
    expect(
      (
        await callPlugin(w.host, {
          plugin: "bridge",
          command: "DEL",
          containerID: "spoof0",
          netns: w.netns(0),
          config: config(),
        })
      ).code,
    ).toBe(0);
    expect(await nftTable()).not.toContain("macspoofchk");
  });
});
