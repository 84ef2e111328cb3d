/**
 * End-to-end: the compiled binary as `bridge` and `ptp` on the real kernel, through the
 * CNI protocol alone, in throwaway namespaces (one plays the host, others containers).
 * Addresses come from 198.18.0.0/15 and 2001:db8::/32 only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { firstMissing, missingFile, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { BIN_DIR, type Call, World, callPlugin, linkNames, pingUntil, sh } from "./harness.ts";

const missing = firstMissing(
  missingRoot(),
  missingTools(["ip", "ping", "nft", "iptables", "iptables-restore", "ip6tables-restore"]),
  missingFile(join(BIN_DIR, "bridge"), "npm run build"),
  missingFile(join(BIN_DIR, "ptp"), "npm run build"),
);
const run = skipUnless("the real-kernel end-to-end tests", missing) ? describe.skip : describe;

type Family = "v4" | "v6" | "dual";
const RANGES: Record<Family, object[][]> = {
  v4: [[{ subnet: "198.18.10.0/24" }]],
  v6: [[{ subnet: "2001:db8:10::/64" }]],
  dual: [[{ subnet: "198.18.11.0/24" }], [{ subnet: "2001:db8:11::/64" }]],
};

function netConfig(plugin: "bridge" | "ptp", family: Family, dataDir: string, version = "1.1.0"): object {
  const ipam = { type: "host-local", ranges: RANGES[family], dataDir };
  const extra = plugin === "bridge" ? { bridge: "tscni0", isGateway: true } : {};
  return { cniVersion: version, name: `e2e-${plugin}-${family}`, type: plugin, ...extra, ipam };
}

interface Added {
  ips: { address: string; interface?: number }[];
  interfaces: { name: string; sandbox?: string }[];
}

function ipsOf(result: Added): string[] {
  return result.ips.map((ip) => ip.address.split("/")[0]!);
}

async function reservationFiles(dataDir: string, net: string): Promise<string[]> {
  const dir = join(dataDir, net);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

for (const plugin of ["bridge", "ptp"] as const) {
  for (const family of ["v4", "v6", "dual"] as const) {
    run(`${plugin} ${family} on the real kernel`, () => {
      let w: World;
      const dataDir = () => join(w.dir, "ipam");
      const call = (
        c: Partial<Call> & Pick<Call, "command">,
        i: number,
      ): Promise<Awaited<ReturnType<typeof callPlugin>>> =>
        callPlugin(w.host, {
          plugin,
          containerID: `ctr-${i}`,
          netns: w.netns(i),
          config: netConfig(plugin, family, dataDir()),
          ...c,
        });
      const results: Added[] = [];

      beforeAll(async () => {
        w = await World.create(`e2e-${plugin.slice(0, 2)}${family}`, 2);
      });
      afterAll(async () => {
        await w.close();
      });

      test("ADD gives each container its addresses and a result listing its interface", async () => {
        for (const i of [0, 1]) {
          const r = await call({ command: "ADD" }, i);
          expect(r.stderr + r.stdout).not.toContain('"code"');
          expect(r.code).toBe(0);
          const result = JSON.parse(r.stdout) as Added;
          expect(result.ips.length).toBe(family === "dual" ? 2 : 1);
          const container = result.interfaces.find((it) => it.sandbox === w.netns(i));
          expect(container?.name).toBe("eth0");
          results.push(result);
        }
        expect(new Set([...ipsOf(results[0]!), ...ipsOf(results[1]!)]).size).toBe(family === "dual" ? 4 : 2);
      });

      test("the containers reach each other", async () => {
        for (const [from, to] of [
          [0, 1],
          [1, 0],
        ] as const) {
          for (const ip of ipsOf(results[to]!)) {
            expect(await pingUntil(w.containers[from]!, ip)).toBe(true);
          }
        }
      });

      test("CHECK passes after ADD and fails once the container's address is removed (CHK-3)", async () => {
        const prev = { ...netConfig(plugin, family, dataDir()), prevResult: results[0] };
        const ok = await call({ command: "CHECK", config: prev }, 0);
        expect(ok.stdout).toBe("");
        expect(ok.code).toBe(0);
        const addr = results[0]!.ips[0]!.address;
        const del = await sh(w.containers[0]!, ["ip", "addr", "del", addr, "dev", "eth0"]);
        expect(del.code).toBe(0);
        const bad = await call({ command: "CHECK", config: prev }, 0);
        expect(bad.code).not.toBe(0);
        expect(JSON.parse(bad.stdout).code).toBeGreaterThan(0);
      });

      test("DEL leaves no trace and a second DEL still succeeds (DEL-1, DEL-3)", async () => {
        for (const i of [0, 1]) {
          const cfg = { ...netConfig(plugin, family, dataDir()), prevResult: results[i] };
          for (let n = 0; n < 2; n++) {
            const r = await call({ command: "DEL", config: cfg }, i);
            expect(r.stdout).toBe("");
            expect(r.code).toBe(0);
          }
          expect(await linkNames(w.containers[i]!)).toEqual(["lo"]);
        }
        const hostLinks = await linkNames(w.host);
        expect(hostLinks.filter((l) => l.startsWith("veth"))).toEqual([]);
        const net = `e2e-${plugin}-${family}`;
        const left = (await reservationFiles(dataDir(), net)).filter(
          (f) => f !== "lock" && !f.startsWith("last_reserved_ip."),
        );
        expect(left).toEqual([]);
      });

      test("DEL succeeds when the netns is already gone and still releases the address (DEL-2)", async () => {
        const gone = await w.set.add("gone");
        const netns = `/var/run/netns/${gone}`;
        const cfg = netConfig(plugin, family, dataDir());
        const add = await callPlugin(w.host, { plugin, command: "ADD", containerID: "ctr-gone", netns, config: cfg });
        expect(add.code).toBe(0);
        await Bun.spawn(["ip", "netns", "del", gone]).exited;
        w.set.names.splice(w.set.names.indexOf(gone), 1);
        const del = await callPlugin(w.host, { plugin, command: "DEL", containerID: "ctr-gone", netns, config: cfg });
        expect(del.code).toBe(0);
        const left = (await reservationFiles(dataDir(), `e2e-${plugin}-${family}`)).filter(
          (f) => f !== "lock" && !f.startsWith("last_reserved_ip."),
        );
        expect(left).toEqual([]);
      });
    });
  }
}

run("bridge on the real kernel, for every result version family", () => {
  for (const version of ["0.3.1", "0.4.0", "1.0.0"]) {
    test(`ADD and DEL at cniVersion ${version} print a ${version} result`, async () => {
      const w = await World.create("e2e-ver", 1);
      try {
        const config = { ...netConfig("bridge", "v4", join(w.dir, "ipam"), version), bridge: "tscni1" };
        const add = await callPlugin(w.host, {
          plugin: "bridge",
          command: "ADD",
          containerID: "v",
          netns: w.netns(0),
          config,
        });
        expect(add.code).toBe(0);
        const result = JSON.parse(add.stdout);
        expect(result.cniVersion).toBe(version);
        if (version.startsWith("0.")) expect(result.ips[0].version).toBe("4");
        else expect(result.ips[0].version).toBeUndefined();
        const del = await callPlugin(w.host, {
          plugin: "bridge",
          command: "DEL",
          containerID: "v",
          netns: w.netns(0),
          config,
        });
        expect(del.code).toBe(0);
        expect(await linkNames(w.containers[0]!)).toEqual(["lo"]);
      } finally {
        await w.close();
      }
    });
  }
});

run("bridge under parallel load on the real kernel", () => {
  test("10 parallel ADDs get 10 distinct addresses, and 10 DELs clean up", async () => {
    const w = await World.create("e2e-par", 10);
    try {
      const config = { ...netConfig("bridge", "v4", join(w.dir, "ipam")), bridge: "tscni2" };
      const adds = await Promise.all(
        w.containers.map((_, i) =>
          callPlugin(w.host, { plugin: "bridge", command: "ADD", containerID: `p${i}`, netns: w.netns(i), config }),
        ),
      );
      for (const a of adds) expect(a.code).toBe(0);
      const ips = adds.map((a) => (JSON.parse(a.stdout) as Added).ips[0]!.address);
      expect(new Set(ips).size).toBe(10);
      const dels = await Promise.all(
        w.containers.map((_, i) =>
          callPlugin(w.host, { plugin: "bridge", command: "DEL", containerID: `p${i}`, netns: w.netns(i), config }),
        ),
      );
      for (const d of dels) expect(d.code).toBe(0);
      expect((await linkNames(w.host)).filter((l) => l.startsWith("veth"))).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
