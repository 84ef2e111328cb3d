/**
 * host-device against the reference (Debian v1.1.1) on the real kernel: a veth end in a
 * throwaway host namespace plays the NIC. Both print the same result and leave the same
 * container link (name, alias, MAC, up, addresses, routes), and each one's DEL moves the
 * other's ADD back to the host under its name. v1.1.1 leaves the alias on the device it
 * gives back; we clear it, as upstream main does (the alias is compared in the container only).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NetnsSet } from "../lib/netns.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing = missingReference({ go: false });
const skip = missing ?? (isRoot() ? undefined : "not root");
announceSkip("host-device.compat.test.ts", skip);
if (process.env.CI === "true" && skip !== undefined)
  throw new Error(`host-device.compat.test.ts cannot run under CI: ${skip}`);

type Who = "ours" | "reference";
const MAC = "02:00:5e:10:00:2a";
let set: NetnsSet;
let host = "";
let container = "";
let dir = "";
/** Each round allocates from a fresh store, so both get the range's first address. */
let round = 0;

const conf = () => ({
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

async function call(who: Who, command: "ADD" | "DEL"): Promise<{ code: number; stdout: string }> {
  const bin = who === "ours" ? join(OUR_BIN_DIR, "host-device") : join(REFERENCE_PLUGINS, "host-device");
  const proc = Bun.spawn(["ip", "netns", "exec", host, bin], {
    env: {
      PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
      CNI_COMMAND: command,
      CNI_CONTAINERID: "hdc1",
      CNI_NETNS: NetnsSet.path(container),
      CNI_IFNAME: "net1",
      CNI_PATH: who === "ours" ? OUR_BIN_DIR : REFERENCE_PLUGINS,
    },
    stdin: new TextEncoder().encode(JSON.stringify(conf())),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout };
}

function ipJson(ns: string, ...args: string[]): unknown[] {
  const r = Bun.spawnSync(["ip", "-n", ns, "-json", ...args]);
  return JSON.parse(r.stdout.toString() || "[]") as unknown[];
}

/** The container's net1 and its addresses and routes, without indexes (a move renumbers). */
function containerState(): unknown {
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

const hostNic = () =>
  (ipJson(host, "link", "show") as { ifname: string; address: string }[]).find((l) => l.ifname === "nic0");
const reserved = () => readdirSync(join(dir, `ipam${round}`, "hdcompat")).filter((f) => f.startsWith("198.18."));

describe.skipIf(skip !== undefined)("host-device interop with the reference v1.1.1", () => {
  beforeAll(async () => {
    set = new NetnsSet("hdcompat");
    host = await set.add("host");
    container = await set.add("c0");
    dir = mkdtempSync(join(tmpdir(), "tscni-hdcompat-"));
    Bun.spawnSync(["ip", "-n", host, "link", "add", "nic0", "address", MAC, "type", "veth", "peer", "name", "nic0p"]);
    Bun.spawnSync(["ip", "-n", host, "link", "set", "nic0", "up"]);
  });
  afterAll(async () => {
    await set.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

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
        state: containerState(),
      };
      expect(hostNic()).toBeUndefined();
      const del = await call(deleter, "DEL");
      expect(del.stdout).toBe("");
      expect(del.code).toBe(0);
      expect(hostNic()?.address).toBe(MAC);
      expect(reserved()).toEqual([]);
      expect((containerState() as { name?: string }).name).toBeUndefined();
    }
    expect(seen.ours).toEqual(seen.reference!);
    expect((seen.ours!.state as { alias: string }).alias).toBe("nic0");
  });
});
