/**
 * End-to-end: bridge with `static` IPAM, then `tuning`, run by `dist/bin/cni add|check|del`
 * from a conflist (as a runtime would) on the real kernel in throwaway namespaces: the
 * containers get the static addresses and reach each other, tuning's MTU, MAC, promisc
 * and sysctl are really applied to each container's eth0 (the MAC through the `mac`
 * capability for one of them), CHECK passes, and DEL removes everything, tuning's backup
 * file included. Addresses from 198.18.0.0/15 only; nothing outside the namespaces.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { BIN_DIR, World, linkNames, pingUntil, sh } from "./harness.ts";

const skip = skipUnless(
  "bridge + static + tuning end to end",
  firstMissing(
    missingRoot(),
    missingTools(["ip", "ping"]),
    existsSync(join(BIN_DIR, "tuning")) ? undefined : `${BIN_DIR}/tuning (bun run scripts/build.ts)`,
  ),
);

describe.skipIf(skip)("bridge with static IPAM, then tuning, through cni add", () => {
  let w: World;
  const conf = () => join(w.dir, "conf");
  const tuningDir = () => join(w.dir, "tuning");
  const cni = (verb: string, i: number, capArgs?: object) => {
    const env = [
      "env",
      `NETCONFPATH=${conf()}`,
      `CNI_PATH=${BIN_DIR}`,
      `CNI_CACHE_DIR=${join(w.dir, "cache")}`,
      `CNI_ARGS=IgnoreUnknown=1;IP=198.18.60.${10 + i}/24`,
    ];
    if (capArgs !== undefined) env.push(`CAP_ARGS=${JSON.stringify(capArgs)}`);
    return sh(w.host, [...env, join(BIN_DIR, "cni"), verb, "tn-e2e", w.netns(i)]);
  };
  const eth0 = async (i: number) =>
    (
      JSON.parse((await sh(w.containers[i]!, ["ip", "-d", "-j", "link", "show", "dev", "eth0"])).stdout) as Record<
        string,
        unknown
      >[]
    )[0] ?? {};

  beforeAll(async () => {
    w = await World.create("e2e-tn", 2);
    mkdirSync(conf(), { recursive: true });
    const list = {
      cniVersion: "1.0.0",
      name: "tn-e2e",
      plugins: [
        {
          type: "bridge",
          bridge: "tscnitn0",
          isGateway: true,
          ipam: { type: "static", routes: [{ dst: "198.19.0.0/16" }] },
        },
        {
          type: "tuning",
          dataDir: tuningDir(),
          mtu: 1400,
          promisc: true,
          sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1" },
          capabilities: { mac: true },
        },
      ],
    };
    writeFileSync(join(conf(), "10-tn.conflist"), JSON.stringify(list));
  });
  afterAll(async () => {
    await w?.close();
  });

  test("ADD gives static addresses and tuned links, the containers reach each other, CHECK passes, DEL removes all", async () => {
    const a0 = await cni("add", 0);
    const a1 = await cni("add", 1, { mac: "02:00:00:00:60:0b" });
    try {
      expect(a0.stdout).toContain("198.18.60.10/24");
      expect(a0.code).toBe(0);
      expect(a1.code).toBe(0);
      const r1 = JSON.parse(a1.stdout) as {
        ips: { address: string }[];
        interfaces: { name: string; mac?: string; sandbox?: string }[];
      };
      expect(r1.ips.map((x) => x.address)).toEqual(["198.18.60.11/24"]);
      expect(r1.interfaces.find((x) => x.sandbox !== undefined)).toMatchObject({
        name: "eth0",
        mac: "02:00:00:00:60:0b",
      });
      for (const i of [0, 1]) expect(await eth0(i)).toMatchObject({ mtu: 1400, promiscuity: 1 });
      expect((await eth0(1)).address).toBe("02:00:00:00:60:0b");
      expect((await sh(w.containers[0]!, ["cat", "/proc/sys/net/ipv4/conf/eth0/arp_notify"])).stdout.trim()).toBe("1");
      expect((await sh(w.containers[0]!, ["ip", "route", "show", "198.19.0.0/16"])).stdout).toContain("198.19.0.0/16");
      expect(await pingUntil(w.containers[0]!, "198.18.60.11")).toBe(true);
      expect(readdirSync(tuningDir()).sort()).toHaveLength(2);
      expect((await cni("check", 0)).code).toBe(0);
      expect((await cni("check", 1, { mac: "02:00:00:00:60:0b" })).code).toBe(0);
    } finally {
      expect((await cni("del", 0)).code).toBe(0);
      expect((await cni("del", 1, { mac: "02:00:00:00:60:0b" })).code).toBe(0);
    }
    expect(await linkNames(w.containers[0]!)).toEqual(["lo"]);
    expect(readdirSync(tuningDir())).toEqual([]);
  });
});
