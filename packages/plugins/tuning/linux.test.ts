/**
 * tuning on the real kernel, in process, over both Linux drivers (rtnetlink and
 * `ip -batch`), inside a throwaway namespace with an `eth0` veth: every attribute is
 * really applied (read back with `ip -d -j link` and /proc/sys), CHECK passes, and DEL
 * gives the link back as it was. Needs root; under CI=true a missing prerequisite fails.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import type { Kernel } from "@tscni/kernel";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { pluginMain, type PluginIO } from "@tscni/skel";
import { tuningDefinition } from "./index.ts";

const skip = skipUnless("tuning on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));
let ns: ThrowawayNetns | undefined;

function ip(...args: string[]): string {
  const r = Bun.spawnSync(["ip", "-n", ns?.name ?? "", ...args]);
  if (r.exitCode !== 0) throw new Error(`ip ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const eth0 = () => {
  const l = (JSON.parse(ip("-d", "-j", "link", "show", "dev", "eth0")) as Record<string, unknown>[])[0] ?? {};
  return {
    mac: l.address,
    mtu: l.mtu,
    promiscuity: l.promiscuity,
    allmulti: l.allmulti,
    txqlen: l.txqlen,
    flags: l.flags,
  };
};
const sysctl = (key: string) =>
  Bun.spawnSync(["ip", "netns", "exec", ns?.name ?? "", "cat", `/proc/sys/${key}`])
    .stdout.toString()
    .trim();

async function run(kernel: Kernel, command: string, config: Record<string, unknown>) {
  let stdout = "";
  const io: PluginIO = {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "ctr-linux",
      CNI_NETNS: ns?.path ?? "",
      CNI_IFNAME: "eth0",
      CNI_PATH: "/opt/cni/bin",
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s) => void (stdout += s),
    stderr: () => {},
  };
  return {
    code: await pluginMain(tuningDefinition({ kernel, readAllowlist: () => undefined, warn: () => {} }), io),
    stdout,
  };
}

describe.skipIf(skip)("tuning on the real kernel", () => {
  beforeAll(() => {
    ns = createThrowawayNetns("tuning");
    ip("link", "add", "eth0", "address", "02:00:00:00:40:01", "type", "veth", "peer", "name", "peer0");
    ip("link", "set", "eth0", "up");
  });
  afterAll(() => deleteThrowawayNetns(ns));

  test("a MTU the kernel refuses fails ADD with the reference's text and undoes the sysctl and the MAC it already set (ADD-6)", async () => {
    const kernel = createNetlinkKernel();
    const before = eth0();
    const dataDir = mkdtempSync(join(tmpdir(), "tscni-tuning-linux-"));
    const conf = {
      cniVersion: "1.0.0",
      name: "tn",
      type: "tuning",
      dataDir,
      mac: "02:00:00:00:40:bb",
      mtu: 10,
      sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1" },
      prevResult: { cniVersion: "1.0.0", interfaces: [{ name: "eth0", sandbox: ns?.path }] },
    };
    const add = await run(kernel, "ADD", conf);
    expect([add.code, JSON.parse(add.stdout).msg]).toEqual([1, "invalid argument"]);
    expect(eth0()).toEqual(before);
    expect(sysctl("net/ipv4/conf/eth0/arp_notify")).toBe("0");
    expect(readdirSync(dataDir)).toEqual([]);
  });

  for (const [driver, make] of [
    ["rtnetlink", createNetlinkKernel],
    ["ip -batch", createLinuxKernel],
  ] as const) {
    test(`${driver}: ADD applies MAC, MTU, promisc, allmulti, queue length and sysctls; CHECK passes; DEL restores`, async () => {
      const kernel = make();
      const before = eth0();
      const dataDir = mkdtempSync(join(tmpdir(), "tscni-tuning-linux-"));
      const conf = {
        cniVersion: "1.0.0",
        name: "tn",
        type: "tuning",
        dataDir,
        mac: "02:00:00:00:40:aa",
        mtu: 1400,
        promisc: true,
        allmulti: true,
        txQLen: 321,
        sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1", "net.ipv6.conf.IFNAME.accept_ra": "0" },
        prevResult: { cniVersion: "1.0.0", interfaces: [{ name: "eth0", sandbox: ns?.path }] },
      };
      const add = await run(kernel, "ADD", conf);
      expect(add.code).toBe(0);
      expect(eth0()).toMatchObject({ mac: "02:00:00:00:40:aa", mtu: 1400, promiscuity: 1, allmulti: 1, txqlen: 321 });
      expect(eth0().flags).toEqual(expect.arrayContaining(["PROMISC", "ALLMULTI"]));
      expect([sysctl("net/ipv4/conf/eth0/arp_notify"), sysctl("net/ipv6/conf/eth0/accept_ra")]).toEqual(["1", "0"]);
      expect(await run(kernel, "CHECK", conf)).toEqual({ code: 0, stdout: "" });
      expect((await run(kernel, "DEL", conf)).code).toBe(0);
      expect(eth0()).toEqual(before);
      // Sysctls stay as ADD left them: the reference's DEL restores link attributes only.
      ip("link", "set", "eth0", "up");
      Bun.spawnSync([
        "ip",
        "netns",
        "exec",
        ns?.name ?? "",
        "sh",
        "-c",
        "echo 0 > /proc/sys/net/ipv4/conf/eth0/arp_notify; echo 1 > /proc/sys/net/ipv6/conf/eth0/accept_ra",
      ]);
    });
  }
});
