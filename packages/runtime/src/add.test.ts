import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CniError } from "@tscni/spec";
import { CniRuntime } from "./cni-runtime.ts";
import { makeSandbox } from "./testing/sandbox.ts";
import type { Sandbox } from "./testing/sandbox.ts";

let sb: Sandbox;
let cni: CniRuntime;
const rt = {
  containerID: "c1",
  netns: "/run/netns/c1",
  ifName: "eth0",
  args: [
    ["IgnoreUnknown", "1"],
    ["K8S_POD_NAME", "web"],
  ] as [string, string][],
};

beforeEach(() => {
  sb = makeSandbox();
  sb.install("a", "b", "c");
  cni = new CniRuntime({
    paths: ["/nonexistent", sb.binDir],
    cacheDir: sb.cacheDir,
    baseEnv: { FAKE_MARK: "inherited", CNI_IFNAME: "wrong" },
  });
});
afterEach(() => sb.cleanup());

async function failure(p: Promise<unknown>): Promise<CniError> {
  try {
    await p;
  } catch (err) {
    return err as CniError;
  }
  throw new Error("expected a failure");
}

describe("addNetworkList", () => {
  test("runs the plugins in list order and threads each result into the next as prevResult (ADD-7)", async () => {
    const result = await cni.addNetworkList(sb.list("net1", "1.1.0", ["a", "b", "c"]), rt);
    const calls = sb.calls();
    expect(calls.map((c) => `${c.command} ${c.tag}`)).toEqual(["ADD a", "ADD b", "ADD c"]);
    const stdins = calls.map((c) => c.stdin as Record<string, unknown>);
    expect(stdins[0]).not.toHaveProperty("prevResult");
    expect(stdins[1]?.prevResult).toEqual({ cniVersion: "1.1.0", interfaces: [{ name: "a" }] });
    expect(stdins[2]?.prevResult).toEqual({ cniVersion: "1.1.0", interfaces: [{ name: "a" }, { name: "b" }] });
    expect(result).toEqual({ cniVersion: "1.1.0", interfaces: [{ name: "a" }, { name: "b" }, { name: "c" }] });
  });

  test("sends each plugin its own object with the list's name and cniVersion injected over its own (RC-1)", async () => {
    await cni.addNetworkList(
      sb.list("net1", "1.0.0", [{ type: "a", name: "mine", cniVersion: "0.3.1", mtu: 1400 }]),
      rt,
    );
    expect(sb.calls()[0]?.stdin).toEqual({
      type: "a",
      name: "net1",
      cniVersion: "1.0.0",
      mtu: 1400,
      fake: { log: sb.log },
    });
  });

  test("gives the plugin the caller's env plus all six CNI variables (P-8, EX-4, CA-4)", async () => {
    await cni.addNetworkList(sb.list("net1", "1.1.0", ["a"]), rt);
    expect(sb.calls()[0]?.env).toEqual({
      FAKE_MARK: "inherited",
      CNI_COMMAND: "ADD",
      CNI_CONTAINERID: "c1",
      CNI_NETNS: "/run/netns/c1",
      CNI_ARGS: "IgnoreUnknown=1;K8S_POD_NAME=web",
      CNI_IFNAME: "eth0",
      CNI_PATH: `/nonexistent:${sb.binDir}`,
    });
  });

  test("injects only declared capabilities and keeps a static runtimeConfig otherwise (CAP-2, RC-5)", async () => {
    const list = sb.list("net1", "1.1.0", [
      { type: "a", capabilities: { portMappings: true, bandwidth: false } },
      { type: "b", runtimeConfig: { static: 1 } },
    ]);
    await cni.addNetworkList(list, {
      ...rt,
      capabilityArgs: { portMappings: [{ hostPort: 80 }], bandwidth: { ingressRate: 1 }, mac: "x" },
    });
    const [a, b] = sb.calls().map((c) => c.stdin as Record<string, unknown>);
    expect(a?.runtimeConfig).toEqual({ portMappings: [{ hostPort: 80 }] });
    expect(a?.capabilities).toEqual({ portMappings: true, bandwidth: false });
    expect(b?.runtimeConfig).toEqual({ static: 1 });
  });

  test("caches the final result in libcni's layout and format, dir 0700 and file 0600 (CACHE-1, CACHE-3)", async () => {
    const list = sb.list("net1", "1.1.0", ["a", "b"]);
    await cni.addNetworkList(list, { ...rt, capabilityArgs: { mac: "c2:11:22:33:44:55" } });
    const file = join(sb.cacheDir, "results", "net1-c1-eth0");
    expect(statSync(join(sb.cacheDir, "results")).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, "utf8");
    const record = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual([
      "kind",
      "containerId",
      "config",
      "ifName",
      "networkName",
      "netns",
      "cniArgs",
      "capabilityArgs",
      "result",
    ]);
    expect(record.kind).toBe("cniCacheV1");
    expect(Buffer.from(String(record.config), "base64").toString()).toBe(new TextDecoder().decode(list.bytes));
    expect(record.cniArgs).toEqual([
      ["IgnoreUnknown", "1"],
      ["K8S_POD_NAME", "web"],
    ]);
    expect(record.result).toEqual({ cniVersion: "1.1.0", interfaces: [{ name: "a" }, { name: "b" }] });
  });

  test("stops at the first failure, wraps it with the plugin type and keeps its code, and caches nothing (E-8, CACHE-4)", async () => {
    const list = sb.list("net1", "1.1.0", [
      "a",
      { type: "b", answer: { ADD: { stdout: '{"code":7,"msg":"bad range","details":"x"}', exit: 1 } } },
      "c",
    ]);
    const err = await failure(cni.addNetworkList(list, rt));
    expect([err.code, err.msg, err.details]).toEqual([7, 'plugin type="b" failed (add): bad range', "x"]);
    expect(sb.calls().map((c) => c.tag)).toEqual(["a", "b"]);
    expect(await cni.getCachedAttachments()).toEqual([]);
  });

  test("fails at a missing plugin after the earlier plugins ran (FP-5, FP-6)", async () => {
    const err = await failure(cni.addNetworkList(sb.list("net1", "1.1.0", ["a", "missing"]), rt));
    expect(err.msg).toBe(
      `plugin type="missing" failed (add): failed to find plugin "missing" in path [/nonexistent ${sb.binDir}]`,
    );
    expect(sb.calls().map((c) => c.tag)).toEqual(["a"]);
  });

  test("validates the container ID, network name and ifname before running a plugin (VAL-4)", async () => {
    const err = await failure(cni.addNetworkList(sb.list("net1", "1.1.0", ["a"]), { ...rt, ifName: "eth0:1" }));
    expect([err.code, err.msg]).toEqual([
      4,
      'plugin type="a" failed (add): interface name contains / or : or whitespace characters',
    ]);
    expect((await failure(cni.addNetworkList(sb.list("net1", "1.1.0", ["a"]), { ...rt, containerID: "" }))).code).toBe(
      3,
    );
    expect((await failure(cni.addNetworkList(sb.list("bad name", "1.1.0", ["a"]), rt))).code).toBe(7);
    expect(sb.calls()).toEqual([]);
  });

  test("kills a plugin that outlives the timeout and fails with code 11 (EX-2)", async () => {
    const quick = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir, timeoutMs: 300 });
    const err = await failure(
      quick.addNetworkList(sb.list("net1", "1.1.0", [{ type: "a", answer: { ADD: { sleepMs: 10_000 } } }]), rt),
    );
    expect(err.code).toBe(11);
    expect(err.msg).toStartWith('plugin type="a" failed (add): netplugin ');
    expect(err.msg).toContain("timed out after 300ms");
  });
});

describe("addNetworkList decodes plugin output as libcni does (E-5, RP-2)", () => {
  const cases: [string, { stdout?: string; stderr?: string; exit?: number }, number, string][] = [
    ["an error object without cniVersion", { stdout: '{"code":11,"msg":"busy"}', exit: 1 }, 11, "busy"],
    ["an error object with cniVersion", { stdout: '{"cniVersion":"1.1.0","code":5,"msg":"io"}', exit: 2 }, 5, "io"],
    [
      "stdout that is not JSON",
      { stdout: "panic!", exit: 1 },
      0,
      `netplugin failed but error parsing its diagnostic message "panic!": invalid character 'p' looking for beginning of value`,
    ],
    ["only stderr", { stderr: "no netns", exit: 1 }, 0, 'netplugin failed: "no netns": exit status 1'],
    ["nothing at all", { exit: 4 }, 0, "netplugin failed with no error message: exit status 4"],
    ["an empty stdout on success", { exit: 0 }, 6, "failed to unmarshal raw result: unexpected end of JSON input"],
  ];
  for (const [what, answer, code, msg] of cases) {
    test(`a plugin that leaves ${what}`, async () => {
      const err = await failure(
        cni.addNetworkList(sb.list("net1", "1.1.0", [{ type: "a", answer: { ADD: answer } }]), rt),
      );
      expect([err.code, err.msg]).toEqual([code, `plugin type="a" failed (add): ${msg}`]);
    });
  }

  test("a literal null result is an empty result in the config's version", async () => {
    const result = await cni.addNetworkList(
      sb.list("net1", "1.0.0", [{ type: "a", answer: { ADD: { stdout: "null" } } }]),
      rt,
    );
    expect(result.cniVersion).toBe("1.0.0");
  });

  test("a result in another version than the config's is kept and passed on as it is (RP-2, RP-3)", async () => {
    const stdout = JSON.stringify({ cniVersion: "0.4.0", ips: [{ version: "4", address: "198.18.0.2/24" }], dns: {} });
    const list = sb.list("net1", "1.0.0", [{ type: "a", answer: { ADD: { stdout } } }, "b"]);
    await cni.addNetworkList(list, rt);
    const prev = (sb.calls()[1]?.stdin as Record<string, unknown>).prevResult as Record<string, unknown>;
    expect(prev.cniVersion).toBe("0.4.0");
    expect(prev.ips).toEqual([{ version: "4", address: "198.18.0.2/24" }]);
  });
});
