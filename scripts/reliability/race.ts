/**
 * The same-container race of issue 16 item 4, on the real kernel: an ADD of a bridge
 * attachment and a DEL of the same (network, containerID, ifname) started a few ms apart,
 * as a runtime's timeout-and-retry produces them, with the plugins exec'd directly (no
 * runtime lock: what cnitool or containerd does). Afterwards every live container
 * interface must hold an address whose reservation still names it (LC-2, §1.9).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NetnsSet } from "../lib/netns.ts";

/** What one run of races found. */
export interface RaceReport {
  readonly races: number;
  /** Live interfaces whose address has no reservation of theirs: another ADD can take it. */
  readonly liveWithFreeAddress: number;
  /** Reservations whose interface does not exist (a leak, not a duplicate). */
  readonly reservedWithoutInterface: number;
  /** Races where ADD or DEL exited non-zero (allowed: DEL may beat ADD to the name). */
  readonly failedCalls: number;
}

function spawnPlugin(
  hostNs: string,
  pluginDir: string,
  command: "ADD" | "DEL",
  cid: string,
  netns: string,
  ifName: string,
  conf: object,
) {
  return Bun.spawn(["ip", "netns", "exec", hostNs, join(pluginDir, "bridge")], {
    env: {
      PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
      CNI_COMMAND: command,
      CNI_CONTAINERID: cid,
      CNI_NETNS: netns,
      CNI_IFNAME: ifName,
      CNI_ARGS: "",
      CNI_PATH: pluginDir,
    },
    stdin: new TextEncoder().encode(JSON.stringify(conf)),
    stdout: "pipe",
    stderr: "pipe",
  }).exited;
}

/** The IPv4 addresses of the container namespace's interfaces, by interface name. */
async function liveAddresses(ns: string): Promise<Map<string, string[]>> {
  const out = await new Response(
    Bun.spawn(["ip", "-n", ns, "-j", "-4", "addr", "show"], { stdout: "pipe" }).stdout,
  ).json();
  const map = new Map<string, string[]>();
  for (const l of out as { ifname: string; addr_info?: { local: string }[] }[]) {
    if (l.ifname !== "lo")
      map.set(
        l.ifname,
        (l.addr_info ?? []).map((a) => a.local),
      );
  }
  return map;
}

/**
 * Runs `races` ADD/DEL overlaps of bridge from `pluginDir` (host-local beside it) in
 * throwaway namespaces; race i starts DEL `(i % 10) * stepMs` ms after ADD. Deletes
 * everything it made, also on failure.
 */
export async function raceAddDel(pluginDir: string, races: number, stepMs = 4): Promise<RaceReport> {
  const set = new NetnsSet("race");
  const dataDir = mkdtempSync(join(tmpdir(), "tscni-race-"));
  const network = "racenet";
  const conf = {
    cniVersion: "0.4.0",
    name: network,
    type: "bridge",
    bridge: "tscnirace0",
    ipam: { type: "host-local", dataDir, ranges: [[{ subnet: "198.18.64.0/24" }]] },
  };
  let failedCalls = 0;
  try {
    const host = await set.add("host");
    const ctr = await set.add("c");
    const netns = NetnsSet.path(ctr);
    for (let i = 0; i < races; i++) {
      const cid = `race${i}`;
      const ifName = `e${i}`;
      const add = spawnPlugin(host, pluginDir, "ADD", cid, netns, ifName, conf);
      await Bun.sleep((i % 10) * stepMs);
      const del = spawnPlugin(host, pluginDir, "DEL", cid, netns, ifName, conf);
      const codes = await Promise.all([add, del]);
      if (codes.some((c) => c !== 0)) failedCalls++;
    }
    const live = await liveAddresses(ctr);
    let liveWithFreeAddress = 0;
    let reservedWithoutInterface = 0;
    for (let i = 0; i < races; i++) {
      const ifName = `e${i}`;
      const holder = `race${i}\r\n${ifName}`;
      const addrs = live.get(ifName);
      if (addrs !== undefined) {
        const ours = addrs.some((ip) => {
          try {
            return readFileSync(join(dataDir, network, ip), "utf8") === holder;
          } catch {
            return false;
          }
        });
        if (!ours) liveWithFreeAddress++;
      }
    }
    const reserved = new Bun.Glob("198.18.*").scanSync(join(dataDir, network));
    for (const ip of reserved) {
      const holder = readFileSync(join(dataDir, network, ip), "utf8");
      const ifName = holder.split("\r\n")[1] ?? "";
      if (!live.has(ifName)) reservedWithoutInterface++;
    }
    return { races, liveWithFreeAddress, reservedWithoutInterface, failedCalls };
  } finally {
    await set.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
