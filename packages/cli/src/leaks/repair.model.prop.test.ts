/**
 * The model test of issue 16 item 7: on the fake kernel, with the result cache and
 * host-local's store in a scratch directory, random sequences of ADD, DEL, pods dying
 * without DEL, cache and store corruption (truncated, garbage, empty, deleted), the
 * fail-safe `leaks --repair` and the runtime's GC. After every step:
 *
 * - no two live attachments share an address;
 * - nothing live is released: each live attachment's reservation file still exists.
 *
 * A deleted cache record or reservation file is data loss no tool can see through: the
 * attachment it belonged to is "forgotten" and left out of both checks (docs/RELIABILITY.md).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { type NetworkConfigList, parseConfList } from "@tscni/config";
import { FakeFirewall } from "@tscni/firewall/fake";
import { collectGarbage } from "@tscni/ipam";
import { openDiskStore } from "@tscni/ipam/disk";
import { bridgeHandlers } from "@tscni/plugins/bridge";
import { hostLocal } from "@tscni/plugins/host-local";
import { type Ipam, cryptoBytes, toCurrent } from "@tscni/plugins/shared";
import type { PluginHandlers } from "@tscni/skel";
import { CniRuntime, DiskCache, cacheFileName, encodeCacheRecord } from "@tscni/runtime";
import type { CmdArgs } from "@tscni/skel";
import { FakeKernel } from "@tscni/kernel/fake";
import { findLeaks } from "./find.ts";
import { repairNetworks } from "./repair.ts";
import { networkStates } from "./scan.ts";

const CONTAINERS = 3;
const NET = "modelnet";
const nsOf = (i: number): string => `/var/run/netns/model${i}`;
const cid = (i: number): string => `ctr-${i}`;
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface Real {
  kernel: FakeKernel;
  bridge: PluginHandlers;
  list: NetworkConfigList;
  cache: DiskCache;
  cacheDir: string;
  dataDir: string;
}
/** The model: live and dead (netns gone, never DELed) attachments with their address; forgotten ones. */
interface Model {
  live: Map<number, string>;
  dead: Map<number, string>;
  forgotten: Set<number>;
}

function machine(): Real {
  const root = mkdtempSync(join(tmpdir(), "tscni-model-"));
  roots.push(root);
  const dataDir = join(root, "ipam");
  const cacheDir = join(root, "cache");
  mkdirSync(dataDir);
  const kernel = new FakeKernel({ seed: 5 });
  const ipam = (_type: string, args: CmdArgs): Ipam => {
    const call = (command: string): CmdArgs => ({ ...args, command });
    return {
      add: async () => toCurrent(await hostLocal.add(call("ADD"))),
      check: async () => hostLocal.check?.(call("CHECK")),
      del: async () => hostLocal.del?.(call("DEL")),
      status: async () => hostLocal.status?.(call("STATUS")),
      gc: async () => hostLocal.gc?.(call("GC")),
    };
  };
  const bridge = bridgeHandlers({
    kernel,
    ipam,
    firewall: new FakeFirewall(),
    random: cryptoBytes,
    sleep: async () => {},
    warn: () => {},
  });
  const conf = {
    cniVersion: "1.0.0",
    name: NET,
    plugins: [
      {
        type: "bridge",
        bridge: "mbr0",
        ipam: { type: "host-local", dataDir, ranges: [[{ subnet: "198.18.90.0/28" }]] },
      },
    ],
  };
  return {
    kernel,
    bridge,
    list: parseConfList(JSON.stringify(conf)),
    cache: new DiskCache(cacheDir),
    cacheDir,
    dataDir,
  };
}

function args(real: Real, command: string, i: number, netns = nsOf(i)): CmdArgs {
  const plugin = real.list.plugins[0]!;
  const config = { ...(plugin.network as object), name: NET, cniVersion: real.list.cniVersion } as CmdArgs["config"];
  return {
    command,
    containerID: cid(i),
    netns,
    ifName: "eth0",
    args: "",
    path: "",
    stdinData: new Uint8Array(),
    config,
  };
}

/** A DEL as the runtime runs it (AL-3): the plugin, then the cache record. */
async function runtimeDel(real: Real, i: number, netns: string): Promise<void> {
  await real.bridge.del!(args(real, "DEL", i, netns));
  await real.cache.remove(cacheFileName(NET, { containerID: cid(i), ifName: "eth0" }));
}

/** The runtime's GC (§7.7) with `valid`: DEL every other cached attachment, then host-local's GC (GC-1). */
async function runtimeGc(real: Real, valid: { containerID: string; ifname: string }[]): Promise<void> {
  const runtime = new CniRuntime({ paths: [], cacheDir: real.cacheDir });
  for (const a of await runtime.getCachedAttachments()) {
    if (a.network !== NET || valid.some((v) => v.containerID === a.containerID && v.ifname === a.ifName)) continue;
    await runtimeDel(real, Number(a.containerID.slice(4)), a.netns);
  }
  const store = openDiskStore(real.dataDir, NET);
  try {
    await collectGarbage(store, valid);
  } finally {
    await store.close();
  }
}

function check(model: Model, real: Real): void {
  const seen = new Map<string, number>();
  for (const [i, ip] of model.live) {
    const on = real.kernel
      .snapshot(nsOf(i))
      .addresses.filter((a) => a.dev === "eth0" && a.family === 4)
      .map((a) => a.cidr.split("/")[0]);
    expect(on).toEqual([ip]);
    if (model.forgotten.has(i)) continue;
    expect(seen.has(ip) ? `${ip} shared by ${seen.get(ip)} and ${i}` : "").toBe("");
    seen.set(ip, i);
    expect(existsSync(join(real.dataDir, NET, ip)) ? "" : `live ${i}'s ${ip} was released`).toBe("");
  }
  // A forgotten attachment may share with another only because its own record was lost.
  for (const [i, ip] of model.live)
    if (model.forgotten.has(i)) expect([...seen.values()].includes(i)).toBe(false), void ip;
}

type Cmd = fc.AsyncCommand<Model, Real>;
const corrupt = (path: string, kind: string): void => {
  if (!existsSync(path)) return;
  if (kind === "truncated") truncateSync(path, Math.floor(readFileSync(path).length / 2));
  else if (kind === "garbage") writeFileSync(path, "\x00\xff\x1b[2Jgarbage");
  else if (kind === "empty") writeFileSync(path, "");
  else rmSync(path);
};

class Add implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>): boolean => !m.live.has(this.i) && !m.dead.has(this.i);
  async run(m: Model, r: Real): Promise<void> {
    if (!r.kernel.namespaces().includes(nsOf(this.i))) r.kernel.addNetns(nsOf(this.i));
    let result;
    try {
      result = await r.bridge.add!(args(r, "ADD", this.i));
    } catch (err) {
      expect(String(err)).toContain("no IP addresses available"); // the /28 is small on purpose
      return;
    }
    const rt = { containerID: cid(this.i), netns: nsOf(this.i), ifName: "eth0" };
    await r.cache.write(cacheFileName(NET, rt), encodeCacheRecord(NET, r.list.bytes, rt, result));
    m.live.set(this.i, (result as { ips: { address: string }[] }).ips[0]!.address.split("/")[0]!);
    m.forgotten.delete(this.i);
    check(m, r);
  }
  toString = (): string => `ADD ${this.i}`;
}

class Del implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>): boolean => m.live.has(this.i) || m.dead.has(this.i);
  async run(m: Model, r: Real): Promise<void> {
    await runtimeDel(r, this.i, nsOf(this.i));
    if (r.kernel.namespaces().includes(nsOf(this.i))) r.kernel.deleteNetns(nsOf(this.i));
    m.live.delete(this.i);
    m.dead.delete(this.i);
    m.forgotten.delete(this.i);
    check(m, r);
  }
  toString = (): string => `DEL ${this.i}`;
}

class Die implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>): boolean => m.live.has(this.i);
  async run(m: Model, r: Real): Promise<void> {
    r.kernel.deleteNetns(nsOf(this.i));
    m.dead.set(this.i, m.live.get(this.i)!);
    m.live.delete(this.i);
    check(m, r);
  }
  toString = (): string => `pod ${this.i} dies without DEL`;
}

class Corrupt implements Cmd {
  constructor(
    readonly i: number,
    readonly what: "cache" | "store",
    readonly kind: string,
  ) {}
  check = (m: Readonly<Model>): boolean => m.live.has(this.i) || m.dead.has(this.i);
  async run(m: Model, r: Real): Promise<void> {
    const ip = m.live.get(this.i) ?? m.dead.get(this.i)!;
    const path =
      this.what === "cache"
        ? join(r.cacheDir, "results", cacheFileName(NET, { containerID: cid(this.i), ifName: "eth0" }))
        : join(r.dataDir, NET, ip);
    if (this.kind === "deleted" && existsSync(path)) m.forgotten.add(this.i);
    corrupt(path, this.kind);
    check(m, r);
  }
  toString = (): string => `${this.kind} ${this.what} of ${this.i}`;
}

class Repair implements Cmd {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const runtime = new CniRuntime({ paths: [], cacheDir: r.cacheDir });
    const netnsExists = (p: string): boolean => r.kernel.namespaces().includes(p);
    const states = await networkStates([r.list], runtime);
    const leaks = states.flatMap((s) => findLeaks(s, netnsExists));
    await repairNetworks([r.list], states, leaks, {
      netnsExists,
      lockDirs: [],
      gc: (_l, valid) => runtimeGc(r, valid),
    });
    // Repair DELs dead attachments whose record it can read.
    for (const i of [...m.dead.keys()])
      if (!existsSync(join(r.cacheDir, "results", cacheFileName(NET, { containerID: cid(i), ifName: "eth0" }))))
        m.dead.delete(i);
    check(m, r);
  }
  toString = (): string => "leaks --repair";
}

class Gc implements Cmd {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    // The runtime knows which pods run (GC-1): exactly the live ones.
    await runtimeGc(
      r,
      [...m.live.keys()].map((i) => ({ containerID: cid(i), ifname: "eth0" })),
    );
    m.dead.clear();
    check(m, r);
  }
  toString = (): string => "runtime GC";
}

const i = fc.integer({ min: 0, max: CONTAINERS - 1 });
const kind = fc.constantFrom("truncated", "garbage", "empty", "deleted");
const commands = fc.commands(
  [
    // ADD twice over: most interesting states need several live attachments.
    i.map((n) => new Add(n) as Cmd),
    i.map((n) => new Add(n) as Cmd),
    i.map((n) => new Del(n) as Cmd),
    i.map((n) => new Die(n) as Cmd),
    fc
      .tuple(i, fc.constantFrom("cache", "store") as fc.Arbitrary<"cache" | "store">, kind)
      .map(([n, w, k]) => new Corrupt(n, w, k) as Cmd),
    fc.constant(new Repair() as Cmd),
    fc.constant(new Gc() as Cmd),
  ],
  { maxCommands: 30 },
);

describe("ADD, DEL, corruption, leaks --repair and GC interleaved (issue 16 item 7)", () => {
  test("no two live attachments ever share an address and nothing live is ever released", async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const real = machine();
        await fc.asyncModelRun(
          () => ({ model: { live: new Map(), dead: new Map(), forgotten: new Set<number>() }, real }),
          cmds,
        );
      }),
      { numRuns: 400 },
    );
  });

  test("the hostile run's case: a live pod's truncated cache record and another pod's death, then repair and a new ADD", async () => {
    const real = machine();
    const model: Model = { live: new Map(), dead: new Map(), forgotten: new Set() };
    for (const c of [
      new Add(1),
      new Add(2),
      new Corrupt(2, "cache", "truncated"),
      new Die(1),
      new Repair(),
      new Add(0),
      new Corrupt(0, "store", "garbage"),
      new Gc(),
      new Add(1),
    ]) {
      await c.run(model, real);
    }
    expect(model.live.size).toBe(3);
  });
});
