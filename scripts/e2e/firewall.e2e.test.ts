/**
 * End-to-end: the `firewall` plugin chained after `bridge`, run by `dist/bin/cni add` from
 * a conflist (as a runtime would), on the real kernel in throwaway namespaces. The host
 * namespace's FORWARD policy is DROP, so a container reaches the third namespace ("far",
 * routed through the host) only through CNI-FORWARD's accepts; with `ingressPolicy:
 * same-bridge` two bridges' containers are cut off from each other while each bridge's
 * own traffic flows. Addresses from 198.18.0.0/15 only; nothing outside the namespaces.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canUseNetns } from "../lib/netns.ts";
import { BIN_DIR, World, pingUntil, sh } from "./harness.ts";

const root = canUseNetns();
const built = existsSync(join(BIN_DIR, "firewall")) && existsSync(join(BIN_DIR, "cni"));
if (!root) console.warn("scripts/e2e: not root, skipping the firewall plugin's real-kernel tests");
else if (!built) console.warn("scripts/e2e: dist/bin/firewall missing: run `npm run build`");
const run = root && built ? describe : describe.skip;

/** A conflist of bridge (gateway, host-local) then firewall. */
function conflist(name: string, bridge: string, subnet: string, dataDir: string, firewall: object | undefined): object {
  const plugins: object[] = [
    { type: "bridge", bridge, isDefaultGateway: true, ipam: { type: "host-local", ranges: [[{ subnet }]], dataDir } },
  ];
  if (firewall !== undefined) plugins.push({ type: "firewall", backend: "iptables", ...firewall });
  return { cniVersion: "1.0.0", name, plugins };
}

/** Runs `cni <verb> <net> <netns>` inside the host namespace, as cnitool would be run. */
async function cni(w: World, verb: "add" | "check" | "del", net: string, i: number) {
  // cnitool derives the container ID from the netns path.
  const env = [
    "env",
    `NETCONFPATH=${join(w.dir, "conf")}`,
    `CNI_PATH=${BIN_DIR}`,
    `CNI_CACHE_DIR=${join(w.dir, "cache")}`,
  ];
  return sh(w.host, [...env, join(BIN_DIR, "cni"), verb, net, w.netns(i)]);
}

function writeConf(w: World, file: string, conf: object): void {
  mkdirSync(join(w.dir, "conf"), { recursive: true });
  writeFileSync(join(w.dir, "conf", file), JSON.stringify(conf));
}

const firstIp = (stdout: string): string =>
  (JSON.parse(stdout) as { ips: { address: string }[] }).ips[0]!.address.split("/")[0]!;

/** The host's filter table in iptables-save form, without counters. */
async function filterRules(w: World): Promise<string[]> {
  const r = await sh(w.host, ["iptables-save", "-t", "filter"]);
  return r.stdout.split("\n").filter((l) => l.startsWith("-A "));
}

run("firewall plugin chained after bridge, on the real kernel", () => {
  let w: World;
  let far = "";
  beforeAll(async () => {
    w = await World.create("e2e-fw", 3);
    far = await w.set.add("far");
    // host <-> far: a routed link; far routes the container subnets back through the host.
    const step = async (ns: string, cmd: string[]) => {
      const r = await sh(ns, cmd);
      if (r.code !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
    };
    await step(w.host, ["ip", "link", "add", "tofar", "type", "veth", "peer", "name", "fromhost", "netns", far]);
    await step(w.host, ["ip", "addr", "add", "198.18.200.1/24", "dev", "tofar"]);
    await step(w.host, ["ip", "link", "set", "tofar", "up"]);
    await step(far, ["ip", "addr", "add", "198.18.200.2/24", "dev", "fromhost"]);
    await step(far, ["ip", "link", "set", "fromhost", "up"]);
    await step(far, ["ip", "route", "add", "198.18.0.0/15", "via", "198.18.200.1"]);
    // The point of the test: nothing is forwarded unless a rule accepts it.
    await step(w.host, ["iptables", "-P", "FORWARD", "DROP"]);
  });
  afterAll(async () => {
    await w.close();
  });

  test("bridge alone cannot forward through a DROP policy; with firewall chained the container reaches the far namespace", async () => {
    writeConf(w, "10-plain.conflist", conflist("plain", "tscnifw0", "198.18.30.0/24", join(w.dir, "ipam"), undefined));
    const plain = await cni(w, "add", "plain", 0);
    try {
      expect(plain.code).toBe(0);
      expect(await pingUntil(w.containers[0]!, "198.18.200.2", 2)).toBe(false);
    } finally {
      expect((await cni(w, "del", "plain", 0)).code).toBe(0);
    }

    writeConf(w, "20-open.conflist", conflist("open", "tscnifw1", "198.18.31.0/24", join(w.dir, "ipam"), {}));
    const add = await cni(w, "add", "open", 0);
    // A failure here must not leave eth0 behind for the next test.
    if (add.code !== 0) await cni(w, "del", "open", 0);
    expect(add.stdout + add.stderr).not.toContain('"code"');
    expect(add.code).toBe(0);
    const ip = firstIp(add.stdout);
    expect(await pingUntil(w.containers[0]!, "198.18.200.2")).toBe(true);
    expect(await filterRules(w)).toEqual(
      expect.arrayContaining([
        '-A FORWARD -m comment --comment "CNI firewall plugin rules" -j CNI-FORWARD',
        '-A CNI-FORWARD -m comment --comment "CNI firewall plugin admin overrides" -j CNI-ADMIN',
        `-A CNI-FORWARD -d ${ip}/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT`,
        `-A CNI-FORWARD -s ${ip}/32 -j ACCEPT`,
      ]),
    );
    expect((await cni(w, "check", "open", 0)).code).toBe(0);
    expect((await cni(w, "del", "open", 0)).code).toBe(0);
    expect((await filterRules(w)).filter((l) => l.includes(ip))).toEqual([]);
    // DEL again: everything already gone is fine (DEL-3).
    expect((await cni(w, "del", "open", 0)).code).toBe(0);
  });

  test("same-bridge: containers of one bridge talk, the other bridge's container is cut off, the far namespace stays reachable", async () => {
    const fw = { ingressPolicy: "same-bridge" };
    writeConf(w, "30-sba.conflist", conflist("sba", "tscnisa", "198.18.32.0/24", join(w.dir, "ipam"), fw));
    writeConf(w, "31-sbb.conflist", conflist("sbb", "tscnisb", "198.18.33.0/24", join(w.dir, "ipam"), fw));
    const a0 = await cni(w, "add", "sba", 0);
    const a1 = await cni(w, "add", "sba", 1);
    const b2 = await cni(w, "add", "sbb", 2);
    for (const r of [a0, a1, b2]) expect(r.stdout + r.stderr).not.toContain('"code"');
    const [ipA1, ipB2] = [firstIp(a1.stdout), firstIp(b2.stdout)];
    expect(await pingUntil(w.containers[0]!, ipA1)).toBe(true);
    expect(await pingUntil(w.containers[0]!, "198.18.200.2")).toBe(true);
    expect(await pingUntil(w.containers[0]!, ipB2, 2)).toBe(false);
    expect(await pingUntil(w.containers[2]!, firstIp(a0.stdout), 2)).toBe(false);
    const rules = await filterRules(w);
    expect(rules[0]).toBe(
      '-A FORWARD -m comment --comment "CNI firewall plugin rules (ingressPolicy: same-bridge|isolated)" -j CNI-ISOLATION-STAGE-1',
    );
    for (const [net, i] of [
      ["sba", 0],
      ["sba", 1],
      ["sbb", 2],
    ] as const)
      expect((await cni(w, "del", net, i)).code).toBe(0);
  });
});
