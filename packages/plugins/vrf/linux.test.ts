/**
 * vrf on the real kernel, in process, inside a throwaway namespace. This machine's kernel
 * has no vrf link kind, so ADD must fail as the reference's does here (`cmdAdd failed:
 * could not add VRF vrf0: operation not supported`, code 999; scripts/compat/vrf.compat.test.ts
 * holds it to /usr/lib/cni/vrf) and leave the namespace exactly as it was; DEL finds no
 * VRF and succeeds; CHECK says the VRF is not there. Both Linux drivers. Root only.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { pluginMain, type PluginIO } from "@tscni/skel";
import { vrfDefinition } from "./index.ts";

const skip = skipUnless("vrf on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));

function sh(argv: string[]): string {
  const r = Bun.spawnSync(argv, { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const DRIVERS = [
  ["netlink", createNetlinkKernel],
  ["iproute2", createLinuxKernel],
] as const;

describe.skipIf(skip).each(DRIVERS)("vrf on a kernel without the vrf kind (%s driver)", (_, createKernel) => {
  let ctr: ThrowawayNetns | undefined;
  const ip = (...a: string[]): string => sh(["ip", "-n", ctr!.name, ...a]);
  const state = (): string =>
    ["link", "addr", "route", "-6 route", "rule"].map((w) => ip(...w.split(" ")).replace(/<[^>]*>/g, "")).join("\n");

  beforeEach(() => {
    ctr = createThrowawayNetns("vrf");
    ip("link", "add", "eth0", "type", "veth", "peer", "name", "eth1");
    ip("link", "set", "eth0", "up");
    ip("link", "set", "eth1", "up");
    ip("addr", "add", "198.18.0.5/24", "dev", "eth0");
    ip("route", "add", "default", "via", "198.18.0.1", "dev", "eth0");
  });
  afterEach(() => deleteThrowawayNetns(ctr));

  async function run(command: string, extra: Record<string, unknown> = {}) {
    let stdout = "";
    const config = {
      cniVersion: "1.0.0",
      name: "vrf-net",
      type: "vrf",
      vrfname: "vrf0",
      prevResult: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.5/24" }] },
      ...extra,
    };
    const io: PluginIO = {
      env: {
        CNI_COMMAND: command,
        CNI_CONTAINERID: "ctr1",
        CNI_NETNS: ctr!.path,
        CNI_IFNAME: "eth0",
        CNI_PATH: "/opt/cni/bin",
      },
      readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
      stdout: (s) => void (stdout += s),
      stderr: () => {},
    };
    return {
      code: await pluginMain(vrfDefinition({ kernel: createKernel(), warn: () => {} }), io),
      json: () => JSON.parse(stdout) as Record<string, unknown>,
    };
  }

  for (const table of [undefined, 100]) {
    test(`ADD${table === undefined ? "" : ` with table ${table}`} fails as the reference does here and leaves nothing behind`, async () => {
      const before = state();
      const r = await run("ADD", table === undefined ? {} : { table });
      expect(r.code).toBe(1);
      expect(r.json()).toEqual({
        cniVersion: "1.0.0",
        code: 999,
        msg: "cmdAdd failed: could not add VRF vrf0: operation not supported",
      });
      expect(state()).toBe(before);
    });
  }

  test("DEL without a VRF succeeds and changes nothing; CHECK says the VRF is not there", async () => {
    const before = state();
    expect((await run("DEL")).code).toBe(0);
    expect(state()).toBe(before);
    expect((await run("CHECK")).json()).toMatchObject({ code: 999, msg: "Link not found" });
  });
});
