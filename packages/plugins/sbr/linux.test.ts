/**
 * sbr on the real kernel, in process, inside throwaway namespaces: a container with two
 * interfaces into a host namespace (eth0 198.18.0.5/24 with main's default route, eth1
 * 198.18.1.5/24). After sbr's ADD for eth1, traffic from eth1's address leaves by eth1
 * (`ip route get ... from ...`, and a ping whose replies the host's eth1 peer counts),
 * while traffic without a source still leaves by eth0; DEL removes the rule. Both Linux
 * drivers. Root only; CI runs as root.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { pluginMain, type PluginIO } from "@tscni/skel";
import { sbrDefinition } from "./index.ts";

const skip = skipUnless("sbr on the real kernel", firstMissing(missingRoot(), missingTools(["ip", "ping"])));

function sh(argv: string[]): string {
  const r = Bun.spawnSync(argv, { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const DRIVERS = [
  ["netlink", createNetlinkKernel],
  ["iproute2", createLinuxKernel],
] as const;

describe.skipIf(skip).each(DRIVERS)("sbr on the real kernel (%s driver)", (_, createKernel) => {
  let host: ThrowawayNetns | undefined;
  let ctr: ThrowawayNetns | undefined;
  const ipc = (...a: string[]): string => sh(["ip", "-n", ctr!.name, ...a]);
  const iph = (...a: string[]): string => sh(["ip", "-n", host!.name, ...a]);

  beforeEach(() => {
    host = createThrowawayNetns("sbrh");
    ctr = createThrowawayNetns("sbrc");
    for (const i of [0, 1]) {
      ipc("link", "add", `eth${i}`, "type", "veth", "peer", "name", `v${i}`, "netns", host.name);
      ipc("addr", "add", `198.18.${i}.5/24`, "dev", `eth${i}`);
      ipc("link", "set", `eth${i}`, "up");
      iph("addr", "add", `198.18.${i}.1/24`, "dev", `v${i}`);
      iph("link", "set", `v${i}`, "up");
    }
    iph("addr", "add", "198.18.50.1/32", "dev", "lo");
    ipc("route", "add", "default", "via", "198.18.0.1", "dev", "eth0");
  });
  afterEach(() => {
    deleteThrowawayNetns(ctr);
    deleteThrowawayNetns(host);
  });

  async function run(command: string, ifName: string) {
    let stdout = "";
    const config = {
      cniVersion: "1.0.0",
      name: "sbr-net",
      type: "sbr",
      prevResult: {
        cniVersion: "1.0.0",
        interfaces: [{ name: ifName, sandbox: ctr!.path }],
        ips: [{ address: "198.18.1.5/24", gateway: "198.18.1.1", interface: 0 }],
      },
    };
    const io: PluginIO = {
      env: {
        CNI_COMMAND: command,
        CNI_CONTAINERID: "ctr1",
        CNI_NETNS: ctr!.path,
        CNI_IFNAME: ifName,
        CNI_PATH: "/opt/cni/bin",
      },
      readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
      stdout: (s) => void (stdout += s),
      stderr: () => {},
    };
    return { code: await pluginMain(sbrDefinition({ kernel: createKernel(), warn: () => {} }), io), stdout };
  }

  const dev = (route: string): string | undefined => /\bdev (\S+)/.exec(route)?.[1];
  const rxPackets = (link: string): number =>
    (JSON.parse(iph("-s", "-j", "link", "show", "dev", link)) as { stats64: { rx: { packets: number } } }[])[0]!.stats64
      .rx.packets;

  test("after ADD traffic from the second address leaves by the second interface, other traffic by the first", async () => {
    // Before: the source does not matter, everything follows main's default route.
    expect(dev(ipc("route", "get", "198.18.50.1", "from", "198.18.1.5"))).toBe("eth0");
    expect((await run("ADD", "eth1")).code).toBe(0);
    expect(ipc("rule", "show")).toContain("from 198.18.1.5 lookup 100");
    expect(dev(ipc("route", "get", "198.18.50.1", "from", "198.18.1.5"))).toBe("eth1");
    expect(dev(ipc("route", "get", "198.18.50.1"))).toBe("eth0");
    expect(dev(ipc("route", "get", "198.18.50.1", "from", "198.18.0.5"))).toBe("eth0");
    // A ping from the second address goes out by eth1: the host's v1 receives it.
    const before = rxPackets("v1");
    sh([
      "ip",
      "netns",
      "exec",
      ctr!.name,
      "ping",
      "-c",
      "3",
      "-i",
      "0.2",
      "-W",
      "2",
      "-I",
      "198.18.1.5",
      "198.18.50.1",
    ]);
    expect(rxPackets("v1") - before).toBeGreaterThanOrEqual(3);
    expect((await run("CHECK", "eth1")).code).toBe(0);
  });

  test("DEL removes the rule and a second DEL succeeds", async () => {
    expect((await run("ADD", "eth1")).code).toBe(0);
    expect((await run("DEL", "eth1")).code).toBe(0);
    expect(ipc("rule", "show")).not.toContain("lookup 100");
    expect((await run("DEL", "eth1")).code).toBe(0);
    const check = await run("CHECK", "eth1");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("no rule for source 198.18.1.5/32");
  });
});
