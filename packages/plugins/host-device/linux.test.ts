/**
 * host-device over the real kernel, in process, with both drivers (rtnetlink and
 * iproute2): throwaway namespaces play the host and the container; a veth end or a tap
 * device made in the host plays the host NIC (this kernel has no dummy). Needs root.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { pluginMain, type PluginIO } from "@tscni/skel";
import type { Kernel } from "@tscni/kernel";
import { lazyLinuxFirewall } from "../shared/lazy-firewall.ts";
import { hostDeviceDefinition } from "./index.ts";
import { memorySysfs } from "./_memory-sysfs.ts";

const skip = skipUnless("host-device on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));

function ip(ns: ThrowawayNetns, ...args: string[]): string {
  const r = Bun.spawnSync(["ip", "-n", ns.name, ...args]);
  if (r.exitCode !== 0) throw new Error(`ip -n ${ns.name} ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

interface IpLink {
  ifname: string;
  address: string;
  flags: string[];
  ifalias?: string;
}
const links = (ns: ThrowawayNetns): IpLink[] => JSON.parse(ip(ns, "-json", "link", "show")) as IpLink[];
const link = (ns: ThrowawayNetns, name: string): IpLink | undefined => links(ns).find((l) => l.ifname === name);

const DRIVERS: [string, (host: string) => Kernel][] = [
  ["rtnetlink", (host) => createNetlinkKernel({ host })],
  ["iproute2", (host) => createLinuxKernel({ host })],
];

describe.skipIf(skip).each(DRIVERS)("host-device on the real kernel through %s", (_driver, makeKernel) => {
  let host: ThrowawayNetns;
  let cont: ThrowawayNetns;
  beforeEach(() => {
    host = createThrowawayNetns("hdh");
    cont = createThrowawayNetns("hdc");
  });
  afterEach(() => {
    deleteThrowawayNetns(cont);
    deleteThrowawayNetns(host);
  });

  async function run(command: string, config: Record<string, unknown>, ifName = "eth0") {
    let stdout = "";
    const io: PluginIO = {
      env: {
        CNI_COMMAND: command,
        CNI_CONTAINERID: "ctr1",
        CNI_NETNS: cont.path,
        CNI_IFNAME: ifName,
        CNI_PATH: "/opt/cni/bin",
      },
      readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
      stdout: (s) => void (stdout += s),
      stderr: () => {},
    };
    const ports = {
      kernel: makeKernel(host.path),
      firewall: lazyLinuxFirewall(),
      ipam: () => {
        throw new Error("no IPAM in this test");
      },
      random: (n: number) => new Uint8Array(n),
      sleep: (ms: number) => Bun.sleep(ms),
      warn: () => {},
    };
    const code = await pluginMain(hostDeviceDefinition(ports, memorySysfs([])), io, { sameNetns: () => false });
    return { code, json: stdout.trim() === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>) };
  }

  const conf = (select: Record<string, unknown>) => ({
    cniVersion: "1.1.0",
    name: "hdnet",
    type: "host-device",
    ...select,
  });

  test.each([
    ["by name, a veth end", "veth", { device: "nic0" }],
    ["by hwaddr, a veth end", "veth", { hwaddr: "02:00:5e:10:00:0a" }],
    ["by name, a tap device", "tap", { device: "nic0" }],
  ] as const)("moves the device in and back %s", async (_what, kind, select) => {
    if (kind === "veth")
      ip(host, "link", "add", "nic0", "address", "02:00:5e:10:00:0a", "type", "veth", "peer", "name", "nic0p");
    else ip(host, "tuntap", "add", "dev", "nic0", "mode", "tap");
    if (kind === "tap") ip(host, "link", "set", "nic0", "address", "02:00:5e:10:00:0a");
    ip(host, "link", "set", "nic0", "up");
    const add = await run("ADD", conf(select), "net1");
    expect(add.code).toBe(0);
    expect(add.json?.interfaces).toEqual([{ name: "net1", mac: "02:00:5e:10:00:0a", sandbox: cont.path }]);
    expect(link(host, "nic0")).toBeUndefined();
    const moved = link(cont, "net1");
    expect(moved?.ifalias).toBe("nic0");
    expect(moved?.flags).toContain("UP");
    expect((await run("CHECK", { ...conf(select), prevResult: add.json }, "net1")).code).toBe(0);
    expect((await run("DEL", conf(select), "net1")).code).toBe(0);
    expect(link(cont, "net1")).toBeUndefined();
    const back = link(host, "nic0");
    expect(back?.address).toBe("02:00:5e:10:00:0a");
    expect(back?.ifalias ?? "").toBe("");
    // DEL again: nothing left to move, still fine (DEL-3).
    expect((await run("DEL", conf(select), "net1")).code).toBe(0);
    const check = await run("CHECK", { ...conf(select), prevResult: add.json }, "net1");
    expect(check.json?.msg).toBe("Container Interface name in prevResult: net1 not found");
  });

  test("a failed ADD leaves the device in the host under its name, still up", async () => {
    ip(host, "link", "add", "nic0", "type", "veth", "peer", "name", "nic0p");
    ip(host, "link", "set", "nic0", "up");
    // The container already has an eth0: the rename fails after the move.
    ip(cont, "link", "add", "eth0", "type", "veth", "peer", "name", "eth0p");
    const add = await run("ADD", conf({ device: "nic0" }));
    expect(add.code).toBe(1);
    expect(String(add.json?.msg)).toStartWith("failed to move link");
    expect(link(host, "nic0")?.flags).toContain("UP");
    expect(link(host, "nic0")?.ifalias ?? "").toBe("");
    expect(link(cont, "nic0")).toBeUndefined();
  });

  test("a missing device fails ADD as the reference", async () => {
    const add = await run("ADD", conf({ device: "nope0" }));
    expect(add.json?.msg).toBe("failed to find host device: Link not found");
  });
});
