/**
 * tap over the real kernel, in process, with both drivers (rtnetlink + /dev/net/tun, and
 * iproute2's `ip tuntap add`), in a throwaway container namespace: owner, group, flags,
 * MTU, MAC and bridge read back from sysfs and `ip` inside it. Needs root.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { pluginMain, type PluginIO } from "@tscni/skel";
import type { Kernel } from "@tscni/kernel";
import { lazyLinuxFirewall } from "../shared/lazy-firewall.ts";
import { tapDefinition } from "./index.ts";

const skip = skipUnless("tap on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));

function sh(ns: ThrowawayNetns, script: string): string {
  const r = Bun.spawnSync(["ip", "netns", "exec", ns.name, "sh", "-c", script]);
  if (r.exitCode !== 0) throw new Error(`${script}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}
const sysfs = (ns: ThrowawayNetns, dev: string, file: string): string => sh(ns, `cat /sys/class/net/${dev}/${file}`);
const links = (ns: ThrowawayNetns): string[] =>
  (JSON.parse(sh(ns, "ip -json link show")) as { ifname: string }[]).map((l) => l.ifname).sort();

const DRIVERS: [string, () => Kernel][] = [
  ["rtnetlink", () => createNetlinkKernel()],
  ["iproute2", () => createLinuxKernel()],
];

describe.skipIf(skip).each(DRIVERS)("tap on the real kernel through %s", (_driver, makeKernel) => {
  let cont: ThrowawayNetns;
  beforeEach(() => void (cont = createThrowawayNetns("tapc")));
  afterEach(() => deleteThrowawayNetns(cont));

  async function run(command: string, config: Record<string, unknown>) {
    let stdout = "";
    const io: PluginIO = {
      env: {
        CNI_COMMAND: command,
        CNI_CONTAINERID: "ctr1",
        CNI_NETNS: cont.path,
        CNI_IFNAME: "tap0",
        CNI_PATH: "/opt/cni/bin",
      },
      readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
      stdout: (s) => void (stdout += s),
      stderr: () => {},
    };
    const ports = {
      kernel: makeKernel(),
      firewall: lazyLinuxFirewall(),
      ipam: () => {
        throw new Error("no IPAM in this test");
      },
      random: (n: number) => new Uint8Array(n),
      sleep: (ms: number) => Bun.sleep(ms),
      warn: () => {},
    };
    const code = await pluginMain(tapDefinition(ports), io, { sameNetns: () => false });
    return { code, json: stdout.trim() === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>) };
  }
  const conf = (extra: Record<string, unknown>) => ({ cniVersion: "1.1.0", name: "tapnet", type: "tap", ...extra });

  test("owner, group, multi-queue, MTU and MAC are set on the tap, which is up on its bridge", async () => {
    sh(cont, "ip link add br0 type bridge && ip link set br0 up");
    const c = conf({ owner: 1000, group: 1001, multiQueue: true, mtu: 1400, mac: "02:00:5e:10:00:3c", bridge: "br0" });
    const add = await run("ADD", c);
    expect(add.code).toBe(0);
    expect(add.json?.interfaces).toEqual([{ name: "tap0", mac: "02:00:5e:10:00:3c", sandbox: cont.path }]);
    expect([sysfs(cont, "tap0", "owner"), sysfs(cont, "tap0", "group")]).toEqual(["1000", "1001"]);
    // IFF_TAP|IFF_MULTI_QUEUE|IFF_PERSIST|IFF_NO_PI|IFF_VNET_HDR: netlink Tuntap's flags, as the reference with owner and group.
    expect(sysfs(cont, "tap0", "tun_flags")).toBe("0x5902");
    expect([sysfs(cont, "tap0", "mtu"), sysfs(cont, "tap0", "address")]).toEqual(["1400", "02:00:5e:10:00:3c"]);
    expect(sh(cont, "basename $(readlink /sys/class/net/tap0/master)")).toBe("br0");
    expect(Number(sysfs(cont, "tap0", "flags")) & 1).toBe(1);
    expect((await run("CHECK", { ...c, prevResult: add.json })).code).toBe(0);
    expect((await run("DEL", c)).code).toBe(0);
    expect(links(cont)).toEqual(["br0", "lo"]);
    expect((await run("DEL", c)).code).toBe(0);
  });

  test("without owner and group the flags are ip tuntap's, owner and group unset", async () => {
    expect((await run("ADD", conf({}))).code).toBe(0);
    expect(sysfs(cont, "tap0", "tun_flags")).toBe("0x1802");
    expect([sysfs(cont, "tap0", "owner"), sysfs(cont, "tap0", "group")]).toEqual(["-1", "-1"]);
  });

  test("a MAC the kernel refuses fails the ADD and leaves no tap behind", async () => {
    const add = await run("ADD", conf({ mac: "03:00:5e:10:00:3c" }));
    expect(add.code).toBe(1);
    expect(links(cont)).toEqual(["lo"]);
  });
});
