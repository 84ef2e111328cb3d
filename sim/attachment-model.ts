/**
 * A model-based test of one attachment plugin (bridge or ptp) on one network: random
 * ADD, CHECK, DEL and failing ADDs of a few containers, checked after every step
 * against a tiny model (which containers are attached, with which addresses):
 *
 * - addresses are distinct across attached containers;
 * - CHECK passes after ADD (CHK-3, from 0.4.0);
 * - every pair of attached containers reaches each other (on the bridge directly,
 *   through the host for ptp), over every family of the network;
 * - DEL leaves the container namespace with only `lo` and releases its addresses;
 * - an ADD that fails at any kernel operation leaves nothing behind: no interface in
 *   the container, no veth on the host, no reservation (ADD-6); only the bridge and its
 *   gateway may remain, usable by the next ADD;
 * - once every container is deleted, the host is back to its baseline but for the
 *   bridge and its gateway address.
 */
import { expect } from "bun:test";
import fc from "fast-check";
import { HOST } from "@tscni/kernel";
import { versionAtLeast } from "@tscni/spec";
import { PluginHarness, resultAddresses } from "./plugin-harness.ts";
import { canReach, type NamespaceSnapshot } from "@tscni/kernel/fake";

/** The network under test. */
export interface NetworkUnderTest {
  plugin: "bridge" | "ptp";
  version: string;
  config: Record<string, unknown>;
  /** Names of host links that are shared network state (the bridge), kept after DEL. */
  shared: readonly string[];
}

/** The model: the addresses of each attached container, by container number. */
export type Model = Map<number, string[]>;

/** The system under test. */
export interface Real {
  h: PluginHarness;
  net: NetworkUnderTest;
  /** The ADD result of each attached container, for CHECK's and DEL's prevResult. */
  results: Map<number, Record<string, unknown>>;
  baseline: NamespaceSnapshot;
}

const nsOf = (i: number): string => `/var/run/netns/m${i}`;
const cid = (i: number): string => `ctr-${i}`;
const ipOf = (cidr: string): string => cidr.split("/")[0] ?? cidr;

/**
 * The host as far as attachments go: the shared links (the bridge, its `<bridge>.<vlan>`
 * gateway veth and that veth's peer) with their addresses, routes and sysctls left out,
 * and forwarding. Per-container host veths stay in, enslaved to the bridge or not.
 */
export function hostWithoutShared(s: NamespaceSnapshot, shared: readonly string[]): unknown {
  const sharedNames = new Set(
    s.links.filter((l) => shared.some((name) => l.name === name || l.name.startsWith(`${name}.`))).map((l) => l.name),
  );
  // The gateway veth's peer: both ends in the host, each naming the other's index.
  const gateways = s.links.filter((l) => sharedNames.has(l.name) && l.kind === "veth");
  for (const l of s.links)
    if (gateways.some((g) => g.peerIndex === l.index && l.peerIndex === g.index)) sharedNames.add(l.name);
  const isShared = (dev: string | undefined): boolean => dev !== undefined && sharedNames.has(dev);
  const sysctls = Object.entries(s.sysctls).filter(
    ([k]) =>
      ![...sharedNames].some((name) => k.includes(`.${name.replaceAll(".", "/")}.`)) &&
      !k.endsWith("forwarding") &&
      k !== "net.ipv4.ip_forward",
  );
  return {
    links: s.links.filter((l) => !isShared(l.name)),
    addresses: s.addresses.filter((a) => !isShared(a.dev)),
    routes: s.routes.filter((r) => !isShared(r.dev)),
    sysctls: Object.fromEntries(sysctls),
  };
}

function prev(real: Real, i: number): Record<string, unknown> {
  const result = real.results.get(i);
  return result !== undefined && versionAtLeast(real.net.version, "0.4.0") ? { prevResult: result } : {};
}

function expectReachable(model: Model, real: Real): void {
  for (const [i] of model) {
    for (const [j, addrs] of model) {
      if (i === j) continue;
      for (const cidr of addrs) {
        expect({ from: i, to: ipOf(cidr), ok: canReach(real.h.kernel, nsOf(i), ipOf(cidr)) }).toEqual({
          from: i,
          to: ipOf(cidr),
          ok: true,
        });
      }
    }
  }
}

function expectDetached(real: Real, i: number): void {
  expect(real.h.kernel.snapshot(nsOf(i)).links.map((l) => l.name)).toEqual(["lo"]);
}

function recordAdd(model: Model, real: Real, i: number, json: Record<string, unknown> | undefined): void {
  const addrs = resultAddresses(json);
  expect(addrs.length).toBeGreaterThan(0);
  const others = [...model.values()].flat().map(ipOf);
  for (const a of addrs) expect(others).not.toContain(ipOf(a));
  model.set(i, addrs);
  real.results.set(i, json ?? {});
}

class Add implements fc.AsyncCommand<Model, Real> {
  constructor(readonly i: number) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const before = { host: real.h.kernel.snapshot(HOST), reserved: real.h.reserved(String(real.net.config.name)) };
    const run = await real.h.run(real.net.plugin, "ADD", {
      config: real.net.config,
      containerID: cid(this.i),
      netns: nsOf(this.i),
    });
    if (model.has(this.i)) {
      // ADD-4: the interface exists, so ADD fails and changes nothing.
      expect(run.code).toBe(1);
      expect(real.h.kernel.snapshot(HOST)).toEqual(before.host);
      expect(real.h.reserved(String(real.net.config.name))).toEqual(before.reserved);
      return;
    }
    expect(run.json?.msg).toBeUndefined();
    recordAdd(model, real, this.i, run.json);
    expectReachable(model, real);
  }
  toString = (): string => `ADD ${this.i}`;
}

class FailingAdd implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly i: number,
    readonly k: number,
  ) {}
  check = (model: Readonly<Model>): boolean => !model.has(this.i);
  async run(model: Model, real: Real): Promise<void> {
    const shared = real.net.shared;
    const before = {
      host: hostWithoutShared(real.h.kernel.snapshot(HOST), shared),
      reserved: real.h.reserved(String(real.net.config.name)),
    };
    const target = real.h.kernel.opCount + this.k;
    real.h.kernel.failAt((_op, index) => index === target);
    const run = await real.h.run(real.net.plugin, "ADD", {
      config: real.net.config,
      containerID: cid(this.i),
      netns: nsOf(this.i),
    });
    real.h.kernel.clearFailures();
    if (run.code === 0) {
      // The ADD had fewer than k operations: it is an ordinary ADD.
      recordAdd(model, real, this.i, run.json);
      return;
    }
    expectDetached(real, this.i);
    expect(hostWithoutShared(real.h.kernel.snapshot(HOST), shared)).toEqual(before.host);
    expect(real.h.reserved(String(real.net.config.name))).toEqual(before.reserved);
  }
  toString = (): string => `ADD ${this.i} failing at op ${this.k}`;
}

class Check implements fc.AsyncCommand<Model, Real> {
  constructor(readonly i: number) {}
  check = (model: Readonly<Model>): boolean => model.has(this.i);
  async run(_model: Model, real: Real): Promise<void> {
    if (!versionAtLeast(real.net.version, "0.4.0")) return;
    const run = await real.h.run(real.net.plugin, "CHECK", {
      config: { ...real.net.config, ...prev(real, this.i) },
      containerID: cid(this.i),
      netns: nsOf(this.i),
    });
    expect(run.json?.msg).toBeUndefined();
    expect(run.code).toBe(0);
  }
  toString = (): string => `CHECK ${this.i}`;
}

class Del implements fc.AsyncCommand<Model, Real> {
  constructor(readonly i: number) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const run = await real.h.run(real.net.plugin, "DEL", {
      config: { ...real.net.config, ...prev(real, this.i) },
      containerID: cid(this.i),
      netns: nsOf(this.i),
    });
    expect(run.json?.msg).toBeUndefined();
    expectDetached(real, this.i);
    const gone = model.get(this.i) ?? [];
    const reserved = real.h.reserved(String(real.net.config.name));
    for (const a of gone) expect(reserved).not.toContain(ipOf(a));
    model.delete(this.i);
    real.results.delete(this.i);
    expectReachable(model, real);
  }
  toString = (): string => `DEL ${this.i}`;
}

/** How many containers a run juggles. */
export const CONTAINERS = 4;

/** The commands of a run. */
export function commands(): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>> {
  const i = fc.integer({ min: 0, max: CONTAINERS - 1 });
  return fc.commands(
    [
      i.map((n) => new Add(n)),
      i.map((n) => new Check(n)),
      i.map((n) => new Del(n)),
      fc.tuple(i, fc.nat({ max: 40 })).map(([n, k]) => new FailingAdd(n, k)),
    ],
    { maxCommands: 24 },
  );
}

/** Runs one sequence of commands on a fresh machine, then deletes everything and checks the baseline. */
export async function runModel(
  net: NetworkUnderTest,
  seed: number,
  cmds: Iterable<fc.AsyncCommand<Model, Real>>,
): Promise<void> {
  const h = new PluginHarness({ seed });
  for (let i = 0; i < CONTAINERS; i++) h.kernel.addNetns(nsOf(i));
  const real: Real = { h, net, results: new Map(), baseline: h.kernel.snapshot(HOST) };
  const model: Model = new Map();
  await fc.asyncModelRun(() => ({ model, real }), cmds);
  for (let i = 0; i < CONTAINERS; i++) await new Del(i).run(model, real);
  expect(hostWithoutShared(h.kernel.snapshot(HOST), net.shared)).toEqual(hostWithoutShared(real.baseline, net.shared));
  expect(h.reserved(String(net.config.name))).toEqual([]);
  expect(h.warnings).toEqual([]);
}
