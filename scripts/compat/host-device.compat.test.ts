/**
 * host-device against the reference (Debian v1.1.1) on the real kernel: a veth end in a
 * throwaway host namespace plays the NIC. Both print the same result and leave the same
 * container link (name, alias, MAC, up, addresses, routes), and each one's DEL moves the
 * other's ADD back to the host under its name. v1.1.1 leaves the alias on the device it
 * gives back; we clear it, as upstream main does (the alias is compared in the container only).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { hostAndContainer, type Who } from "./_host-and-container.ts";
import { announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing = missingReference({ go: false });
const skip = missing ?? (isRoot() ? undefined : "not root");
announceSkip("host-device.compat.test.ts", skip);
if (process.env.CI === "true" && skip !== undefined)
  throw new Error(`host-device.compat.test.ts cannot run under CI: ${skip}`);

const MAC = "02:00:5e:10:00:2a";
/** Each round allocates from a fresh store, so both get the range's first address. */
let round = 0;

const conf = (dir: string) => ({
  cniVersion: "1.0.0",
  name: "hdcompat",
  type: "host-device",
  device: "nic0",
  ipam: {
    type: "host-local",
    ranges: [[{ subnet: "198.18.44.0/24", gateway: "198.18.44.1" }]],
    routes: [{ dst: "198.18.45.0/24" }],
    dataDir: join(dir, `ipam${round}`),
  },
});

function ipJson(ns: string, ...args: string[]): unknown[] {
  const r = Bun.spawnSync(["ip", "-n", ns, "-json", ...args]);
  return JSON.parse(r.stdout.toString() || "[]") as unknown[];
}

/** The container's net1 and its addresses and routes, without indexes (a move renumbers). */
function containerState(container: string): unknown {
  const link = (
    ipJson(container, "-details", "link", "show") as {
      ifname: string;
      ifalias?: string;
      address: string;
      flags: string[];
    }[]
  ).find((l) => l.ifname === "net1");
  const addrs = (
    ipJson(container, "addr", "show", "dev", "net1") as {
      addr_info: { local: string; prefixlen: number; family: string }[];
    }[]
  ).flatMap((a) => a.addr_info.filter((i) => i.family === "inet").map((i) => `${i.local}/${i.prefixlen}`));
  const routes = (ipJson(container, "route", "show") as { dst: string; gateway?: string; dev: string }[]).map(
    (r) => `${r.dst} via ${r.gateway ?? "-"} dev ${r.dev}`,
  );
  return {
    name: link?.ifname,
    alias: link?.ifalias,
    mac: link?.address,
    up: link?.flags.includes("UP"),
    addrs,
    routes,
  };
}

/** v1.1.1 prints `"dns": {}` in 1.x results; SPEC §3.4 (upstream main) omits an empty one. */
function withoutEmptyDns(r: Record<string, unknown>): Record<string, unknown> {
  const { dns, ...rest } = r;
  return dns !== undefined && JSON.stringify(dns) !== "{}" ? r : rest;
}

const hostNic = (host: string) =>
  (ipJson(host, "link", "show") as { ifname: string; address: string }[]).find((l) => l.ifname === "nic0");
const reserved = (dir: string) =>
  readdirSync(join(dir, `ipam${round}`, "hdcompat")).filter((f) => f.startsWith("198.18."));

describe.skipIf(skip !== undefined)("host-device interop with the reference v1.1.1", () => {
  const ns = hostAndContainer("hdcompat", (host) => {
    Bun.spawnSync(["ip", "-n", host, "link", "add", "nic0", "address", MAC, "type", "veth", "peer", "name", "nic0p"]);
    Bun.spawnSync(["ip", "-n", host, "link", "set", "nic0", "up"]);
  });
  const call = (who: Who, command: "ADD" | "DEL") =>
    ns.call(who, "host-device", { command, containerID: "hdc1", ifName: "net1" }, conf(ns.dir));

  test("the same result and container state, and each DEL undoes the other's ADD", async () => {
    const seen: Partial<Record<Who, { stdout: unknown; state: unknown }>> = {};
    for (const [adder, deleter] of [
      ["reference", "ours"],
      ["ours", "reference"],
    ] as const) {
      round += 1;
      const add = await call(adder, "ADD");
      expect(add.code).toBe(0);
      seen[adder] = {
        stdout: withoutEmptyDns(JSON.parse(add.stdout) as Record<string, unknown>),
        state: containerState(ns.container),
      };
      expect(hostNic(ns.host)).toBeUndefined();
      const del = await call(deleter, "DEL");
      expect(del.stdout).toBe("");
      expect(del.code).toBe(0);
      expect(hostNic(ns.host)?.address).toBe(MAC);
      expect(reserved(ns.dir)).toEqual([]);
      expect((containerState(ns.container) as { name?: string }).name).toBeUndefined();
    }
    expect(seen.ours).toEqual(seen.reference!);
    expect((seen.ours!.state as { alias: string }).alias).toBe("nic0");
  });
});
