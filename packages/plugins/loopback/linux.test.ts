/**
 * loopback over the real Linux driver, in process, inside a throwaway namespace (the
 * compiled binary is judged by conformance/ on dist/bin). Needs root; skipped otherwise.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { pluginMain } from "@tscni/skel";
import type { PluginIO } from "@tscni/skel";
import { definition } from "./index.ts";

const skip = skipUnless("loopback on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));
let ns: ThrowawayNetns | undefined;
const NS = (): string => ns?.path ?? "/var/run/netns/tscni-lo-none";

function ip(...args: string[]): string {
  const r = Bun.spawnSync(["ip", ...args]);
  if (r.exitCode !== 0) throw new Error(`ip ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const loFlags = (): string[] =>
  (JSON.parse(ip("-n", ns?.name ?? "", "-json", "link", "show", "dev", "lo")) as { flags: string[] }[])[0]?.flags ?? [];

async function run(command: string, config: Record<string, unknown>, netns = NS()) {
  let stdout = "";
  const io: PluginIO = {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "ctr1",
      CNI_NETNS: netns,
      CNI_IFNAME: "eth0",
      CNI_PATH: "/opt/cni/bin",
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s) => void (stdout += s),
    stderr: () => {},
  };
  return { code: await pluginMain(definition(createLinuxKernel()), io), stdout };
}

describe.skipIf(skip)("loopback on the real kernel", () => {
  beforeAll(() => void (ns = createThrowawayNetns("lo", { loopbackUp: false })));
  afterAll(() => deleteThrowawayNetns(ns));
  const conf = { cniVersion: "1.0.0", name: "lo-net", type: "loopback" };

  test("ADD brings lo up and reports 127.0.0.1/8 and ::1/128, CHECK passes, DEL sets it down", async () => {
    expect(loFlags()).not.toContain("UP");
    const add = await run("ADD", conf);
    expect(add.code).toBe(0);
    expect(loFlags()).toContain("UP");
    const result = JSON.parse(add.stdout);
    expect(result.interfaces).toEqual([{ name: "lo", mac: "00:00:00:00:00:00", sandbox: NS() }]);
    expect(result.ips.map((x: { address: string }) => x.address)).toContain("127.0.0.1/8");
    expect((await run("CHECK", { ...conf, prevResult: result })).code).toBe(0);
    expect((await run("DEL", conf)).code).toBe(0);
    expect(loFlags()).not.toContain("UP");
    const check = await run("CHECK", { ...conf, prevResult: result });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).msg).toBe("loopback interface is down");
  });

  test("DEL of a namespace that no longer exists succeeds (LO-3)", async () => {
    expect((await run("DEL", conf, `${NS()}-gone`)).code).toBe(0);
  });
});
