/**
 * `cni plan` against what the chain then does: each network is planned on a fake kernel,
 * then its plugins run ADD for real on that kernel, one after the other (host-local over
 * the plan's peeking store, so the address is the peeked one), and the ops they asked
 * the kernel to apply must be the plan's, in order.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeFirewall } from "@tscni/firewall/fake";
import { HOST, type Kernel, type KernelBatch, type KernelOp } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { bridgeHandlers } from "@tscni/plugins/bridge";
import { hostDeviceHandlers } from "@tscni/plugins/host-device";
import { hostLocalHandlers } from "@tscni/plugins/host-local";
import { ptpHandlers } from "@tscni/plugins/ptp";
import { sbrHandlers } from "@tscni/plugins/sbr";
import { toCurrent, type Ipam, type PluginPorts } from "@tscni/plugins/shared";
import { vrfHandlers } from "@tscni/plugins/vrf";
import type { CmdArgs, PluginHandlers } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { counting, planSetup } from "../testing/plan-network.ts";
import { cnitoolContainerID } from "./_cnitool.ts";
import { planNetwork } from "./_plan-network.ts";
import { PeekStore } from "./_peek-store.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-plan-fake-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NS = "/var/run/netns/tscni-plan-fake";
const V4 = { subnet: "198.18.0.0/24", gateway: "198.18.0.1" };
const V6 = { subnet: "2001:db8::/64", gateway: "2001:db8::1" };
const hl = hostLocalHandlers((d, n) => new PeekStore(d, n));

/** host-local in process over the plan's own peeking store: the ADD takes the peeked address. */
function peekIpam(type: string, a: CmdArgs): Ipam {
  if (type !== "host-local") throw new Error(`no IPAM ${type} here`);
  const none = async (): Promise<void> => {};
  return {
    add: async () => toCurrent(await hl.add({ ...a, command: "ADD" })),
    check: none,
    del: none,
    status: none,
    gc: none,
  };
}

/** The fake kernel, every op it is asked to apply recorded in `tried` (a best-effort op that fails included). */
function recording(k: FakeKernel, tried: KernelOp[]): Kernel {
  return new Proxy(k, {
    get: (t, p) => {
      if (p === "apply") return async (b: KernelBatch) => (tried.push(...b), t.apply(b));
      const v = Reflect.get(t, p);
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
}

function handlersFor(type: string, k: Kernel): PluginHandlers {
  const ports: PluginPorts = {
    kernel: k,
    firewall: new FakeFirewall(),
    ipam: peekIpam,
    random: counting(),
    sleep: async () => {},
    warn: () => {},
  };
  if (type === "ptp") return ptpHandlers(ports);
  if (type === "bridge") return bridgeHandlers(ports);
  if (type === "sbr") return sbrHandlers(ports);
  if (type === "vrf") return vrfHandlers(ports);
  if (type === "host-device")
    return hostDeviceHandlers(ports, {
      root: "/nonexistent",
      list: () => undefined,
      exists: () => false,
      linkTarget: () => undefined,
    });
  throw new Error(`no handlers for ${type} here`);
}

/** The plan of the chain, and the ops the kernel ran when the chain's ADDs ran on it. */
async function planThenRun(
  name: string,
  plugins: Record<string, unknown>[],
  prepare: KernelOp[] = [],
): Promise<{ planned: KernelOp[]; ran: KernelOp[] }> {
  const { env } = planSetup(dir, name, plugins);
  const k = new FakeKernel();
  k.addNetns(NS);
  k.applySync(prepare);
  const plan = await planNetwork("web", NS, { env, kernel: k, random: counting(), firewall: new FakeFirewall() });
  const ran: KernelOp[] = [];
  const list = JSON.parse(readFileSync(join(env.NETCONFPATH!, "10-web.conflist"), "utf8"));
  let prev: Result100 | undefined;
  for (const conf of list.plugins as Record<string, unknown>[]) {
    const config = {
      ...conf,
      name: "web",
      cniVersion: "1.0.0",
      ...(prev && { prevResult: { ...prev, cniVersion: "1.0.0" } }),
    };
    const a: CmdArgs = {
      command: "ADD",
      containerID: cnitoolContainerID(NS),
      netns: NS,
      ifName: "eth0",
      args: "",
      path: "/opt/cni/bin",
      stdinData: new TextEncoder().encode(JSON.stringify(config)),
      config: config as CmdArgs["config"],
    };
    prev = toCurrent((await handlersFor(String(conf.type), recording(k, ran)).add!(a)) as Result100);
  }
  return { planned: plan.ops, ran };
}

const ptp = (ranges: unknown[][] = [[V4], [V6]]) => ({
  type: "ptp",
  ipam: { type: "host-local", dataDir: "DATA", ranges },
});

/** The host's NIC: a veth end `nic0`, with `up` (it or its peer) up. */
const nic = (up: "nic0" | "nic0p"): KernelOp[] => [
  { op: "veth.add", ns: HOST, name: "nic0", mac: "02:00:00:00:00:0a", peer: { name: "nic0p", ns: HOST } },
  { op: "link.set", ns: HOST, name: up, up: true },
];
const hostDevice = {
  type: "host-device",
  device: "nic0",
  ipam: { type: "host-local", dataDir: "DATA", ranges: [[V4]] },
};

describe("cni plan is what the chain then does (fake kernel)", () => {
  test("sbr without a table: rules from table 100 and the interface's routes, kernel-made ones included, moved", async () => {
    const { planned, ran } = await planThenRun("sbr", [ptp(), { type: "sbr" }]);
    expect(planned).toContainEqual({ op: "rule.add", ns: NS, from: "198.18.0.3/32", table: 100 });
    expect(planned).toContainEqual(expect.objectContaining({ op: "route.add", dst: "fe80::/64", table: 101 }));
    expect(planned).toEqual(ran);
  });

  test("sbr without a table skips the tables rules already name, and addSourceHints keeps link routes in main", async () => {
    const taken: KernelOp[] = [{ op: "rule.add", ns: NS, from: "198.18.9.9/32", table: 100 }];
    const { planned, ran } = await planThenRun(
      "sbr-hints",
      [ptp([[V4]]), { type: "sbr", addSourceHints: true }],
      taken,
    );
    expect(planned).toContainEqual({ op: "rule.add", ns: NS, from: "198.18.0.3/32", table: 101 });
    expect(planned).toEqual(ran);
  });

  test("bridge then sbr, dual stack, with the bridge as gateway: every route of eth0 moved by address", async () => {
    const bridge = { type: "bridge", bridge: "cni0", isGateway: true, ipam: ptp().ipam };
    const { planned, ran } = await planThenRun("bridge-sbr", [bridge, { type: "sbr" }]);
    expect(planned).toContainEqual({ op: "rule.add", ns: NS, from: "2001:db8::2/128", table: 101 });
    expect(planned).toEqual(ran);
  });

  test("vrf: the VRF made on the first free table, the interface enslaved, its IPv6 address and global routes back", async () => {
    const { planned, ran } = await planThenRun("vrf", [ptp(), { type: "vrf", vrfname: "blue" }]);
    expect(planned).toContainEqual({ op: "vrf.add", ns: NS, name: "blue", table: 1 });
    expect(planned).toContainEqual({ op: "addr.add", ns: NS, dev: "eth0", cidr: "2001:db8::2/64", nodad: true });
    expect(planned).toEqual(ran);
  });

  test("vrf: an existing VRF is reused with its table", async () => {
    const blue: KernelOp[] = [
      { op: "vrf.add", ns: NS, name: "blue", table: 7 },
      { op: "link.set", ns: NS, name: "blue", up: true },
    ];
    const { planned, ran } = await planThenRun(
      "vrf-existing",
      [ptp([[V4]]), { type: "vrf", vrfname: "blue", table: 7 }],
      blue,
    );
    expect(planned.some((o) => o.op === "vrf.add")).toBe(false);
    expect(planned).toContainEqual(
      expect.objectContaining({ op: "route.add", dst: "198.18.0.0/24", gw: "198.18.0.1", table: 7 }),
    );
    expect(planned).toEqual(ran);
  });

  test("host-device: the host device moved in under its alias, then the peeked addresses on it", async () => {
    const { planned, ran } = await planThenRun("hostdev", [hostDevice], nic("nic0"));
    expect(planned).toContainEqual({ op: "link.move", ns: HOST, name: "nic0", to: NS });
    expect(planned).toContainEqual(expect.objectContaining({ op: "addr.add", dev: "eth0", cidr: "198.18.0.3/24" }));
    expect(planned).toEqual(ran);
  });

  test("host-device then sbr: the moved device's routes go to table 100", async () => {
    const { planned, ran } = await planThenRun("hostdev-sbr", [hostDevice, { type: "sbr" }], nic("nic0p"));
    expect(planned).toContainEqual({ op: "rule.add", ns: NS, from: "198.18.0.3/32", table: 100 });
    expect(planned).toEqual(ran);
  });
});
