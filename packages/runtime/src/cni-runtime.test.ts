import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { CniRuntime } from "./cni-runtime.ts";
import { makeSandbox } from "./testing/sandbox.ts";
import type { Sandbox } from "./testing/sandbox.ts";

let sb: Sandbox;
let cni: CniRuntime;
const rt = (containerID: string, ifName = "eth0") => ({
  containerID,
  netns: `/run/netns/${containerID}`,
  ifName,
  args: [["A", "1"]] as [string, string][],
  capabilityArgs: { mac: "m" },
});

beforeEach(() => {
  sb = makeSandbox();
  sb.install("a");
  cni = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
});
afterEach(() => sb.cleanup());

describe("CniRuntime cache queries", () => {
  test("list cached attachments, all or one container's (GA-1..GA-4)", async () => {
    const list = sb.list("net1", "1.1.0", ["a"]);
    await cni.addNetworkList(list, rt("c1"));
    await cni.addNetworkList(list, rt("c1", "eth1"));
    await cni.addNetworkList(list, rt("c2"));
    expect((await cni.getCachedAttachments()).map((a) => `${a.containerID}/${a.ifName}`)).toEqual([
      "c1/eth0",
      "c1/eth1",
      "c2/eth0",
    ]);
    const mine = await cni.getCachedAttachments("c2");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      network: "net1",
      netns: "/run/netns/c2",
      cniArgs: [["A", "1"]],
      capabilityArgs: { mac: "m" },
    });
    expect(new TextDecoder().decode(mine[0]?.config)).toBe(new TextDecoder().decode(list.bytes));
  });

  test("give back the cached result and config, or undefined when nothing is cached (CACHE-5, CACHE-6)", async () => {
    const list = sb.list("net1", "1.1.0", ["a"]);
    expect(await cni.getNetworkListCachedResult(list, rt("c1"))).toBeUndefined();
    expect(await cni.getNetworkListCachedConfig(list, rt("c1"))).toBeUndefined();
    const result = await cni.addNetworkList(list, rt("c1"));
    expect(await cni.getNetworkListCachedResult(list, rt("c1"))).toEqual(result);
    const cached = await cni.getNetworkListCachedConfig(list, { containerID: "c1", netns: "", ifName: "eth0" });
    expect(cached?.rt).toEqual({
      containerID: "c1",
      netns: "",
      ifName: "eth0",
      args: [["A", "1"]],
      capabilityArgs: { mac: "m" },
    });
  });
});

describe("CniRuntime validation", () => {
  test("probes every plugin with VERSION and returns the enabled capabilities (VN-5)", async () => {
    const list = sb.list("net1", "1.0.0", [
      { type: "a", capabilities: { portMappings: true, mac: false } },
      { type: "a", capabilities: { bandwidth: true } },
    ]);
    expect(await cni.validateNetworkList(list)).toEqual(["bandwidth", "portMappings"]);
    expect(sb.calls()).toEqual([]); // VERSION stdin carries no log path; nothing else ran
  });

  test("reports every plugin that fails, formatted like a Go slice (VN-5)", async () => {
    sb.script("old", `echo '{"code":4,"msg":"unknown CNI_COMMAND: VERSION"}'; exit 1`);
    const list = sb.list("net1", "1.0.0", ["old", "missing", "a"]);
    let err: CniError | undefined;
    try {
      await cni.validateNetworkList(list);
    } catch (e) {
      err = e as CniError;
    }
    expect(err?.msg).toBe(
      `[plugin old does not support config version "1.0.0" failed to find plugin "missing" in path [${sb.binDir}]]`,
    );
  });

  test("reports a plugin's supported versions (VER-2)", async () => {
    expect((await cni.getVersionInfo("a")).supportedVersions).toContain("1.1.0");
  });
});
