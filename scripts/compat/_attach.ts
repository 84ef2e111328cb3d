/**
 * One full attach/detach cycle on the real kernel, driven by a runtime (ours or the
 * reference refcni) over a directory of plugins (ours or the reference): two containers
 * join a bridge network (bridge + host-local, dual stack, loopback chained) and a ptp
 * network, CHECK, ping each other, then DEL leaves nothing behind. Everything happens in
 * the namespaces of a `World` (one plays the host); addresses are from 198.18.0.0/15
 * and 2001:db8::/32.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World, linkNames, pingUntil } from "../e2e/harness.ts";
import { mustRun } from "./_runtimes.ts";
import type { Runtime } from "./_runtimes.ts";

const BRIDGE_NET = "tscni-compat-br";
const PTP_NET = "tscni-compat-ptp";

/** The two networks of the cycle, at one spec version, with IPAM data under `dataDir`. */
function networks(version: string, dataDir: string): Record<string, object> {
  return {
    [BRIDGE_NET]: {
      cniVersion: version,
      name: BRIDGE_NET,
      plugins: [
        {
          type: "bridge",
          bridge: "tcbr0",
          isGateway: true,
          isDefaultGateway: true,
          ipam: {
            type: "host-local",
            ranges: [[{ subnet: "198.18.60.0/24" }], [{ subnet: "2001:db8:60::/64" }]],
            dataDir,
          },
        },
        { type: "loopback" },
      ],
    },
    [PTP_NET]: {
      cniVersion: version,
      name: PTP_NET,
      plugins: [
        {
          type: "ptp",
          mtu: 1400,
          ipam: {
            type: "host-local",
            ranges: [[{ subnet: "198.18.61.0/24" }]],
            routes: [{ dst: "198.18.62.0/24", gw: "198.18.61.1" }],
            dataDir,
          },
        },
      ],
    },
  };
}

interface WireResult {
  interfaces?: { name: string; mac?: string; sandbox?: string }[];
  ips?: { address: string; interface?: number }[];
  routes?: unknown[];
  dns?: unknown;
}

/** What a cycle saw: the ADD results, made comparable across worlds, and what was left after DEL. */
export interface Cycle {
  results: unknown[];
  pings: Record<string, boolean>;
  leftInContainers: string[][];
  leftOnHost: string[];
  leftReservations: string[];
  leftCache: string[];
}

/**
 * A result without what differs from run to run: MACs, host veth names (random) and the
 * container netns paths (named per world); an empty `dns` is left out (libcni v1.1
 * prints `"dns":{}` at 1.0.0, §3.4).
 */
function comparable(result: WireResult, w: World): unknown {
  const sandbox = (s: string | undefined) =>
    s === undefined ? undefined : s.replace(w.netns(0), "<c0>").replace(w.netns(1), "<c1>");
  const { dns, ...rest } = result;
  return {
    ...rest,
    ...(dns !== undefined && JSON.stringify(dns) !== "{}" ? { dns } : {}),
    interfaces: result.interfaces?.map((i) => ({
      name: i.name.startsWith("veth") ? "veth*" : i.name,
      ...(i.mac ? { mac: "<mac>" } : {}),
      ...(i.sandbox ? { sandbox: sandbox(i.sandbox) } : {}),
    })),
  };
}

/** Runs the whole cycle with `runtime` over the plugins in `pluginDir`, at `version`. */
export async function attachCycle(runtime: Runtime, pluginDir: string, version: string): Promise<Cycle> {
  const w = await World.create(`compat-${runtime.slice(0, 3)}`, 2);
  try {
    const conf = join(w.dir, "conf");
    const dataDir = join(w.dir, "ipam");
    const cacheDir = join(w.dir, "cache");
    mkdirSync(conf, { recursive: true });
    for (const [name, list] of Object.entries(networks(version, dataDir)))
      writeFileSync(join(conf, `${name}.conflist`), JSON.stringify(list));
    const call = (cmd: "add" | "check" | "del", net: string, i: number) => ({
      cmd,
      net,
      netns: w.netns(i),
      cacheDir,
      hostNs: w.host,
      env: { NETCONFPATH: conf, CNI_PATH: pluginDir, CNI_IFNAME: net === BRIDGE_NET ? "eth0" : "eth1" },
    });

    const raw: WireResult[] = [];
    for (const i of [0, 1]) {
      for (const net of [BRIDGE_NET, PTP_NET])
        raw.push(JSON.parse(await mustRun(runtime, call("add", net, i))) as WireResult);
    }
    for (const i of [0, 1]) for (const net of [BRIDGE_NET, PTP_NET]) await mustRun(runtime, call("check", net, i));

    // c0 reaches c1 over the bridge (both families) and over the two ptp links via the host.
    const addressOf = (r: WireResult | undefined, v6: boolean) =>
      r?.ips?.map((ip) => ip.address.split("/")[0] ?? "").find((a) => a.includes(":") === v6) ?? "";
    const pings: Record<string, boolean> = {};
    for (const [label, address] of [
      ["bridge v4", addressOf(raw[2], false)],
      ["bridge v6", addressOf(raw[2], true)],
      ["ptp v4", addressOf(raw[3], false)],
    ] as const) {
      pings[label] = address !== "" && (await pingUntil(w.containers[0] ?? "", address, 20));
    }

    for (const i of [1, 0]) {
      for (const net of [PTP_NET, BRIDGE_NET]) await mustRun(runtime, call("del", net, i));
      await mustRun(runtime, call("del", PTP_NET, i)); // DEL-3: a repeated DEL succeeds
    }
    const dirFiles = (d: string) => (existsSync(d) ? readdirSync(d) : []);
    return {
      results: raw.map((r) => comparable(r, w)),
      pings,
      leftInContainers: [await linkNames(w.containers[0] ?? ""), await linkNames(w.containers[1] ?? "")],
      leftOnHost: (await linkNames(w.host)).filter((l) => l !== "tcbr0"), // the bridge stays, like the reference's
      leftReservations: [BRIDGE_NET, PTP_NET]
        .flatMap((n) => dirFiles(join(dataDir, n)))
        .filter((f) => f !== "lock" && !f.startsWith("last_reserved_ip.")),
      leftCache: dirFiles(join(cacheDir, "results")),
    };
  } finally {
    await w.close();
  }
}
