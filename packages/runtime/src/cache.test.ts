import { describe, expect, test } from "bun:test";
import {
  cacheFileName,
  decodeAttachment,
  decodeCachedConfig,
  decodeCachedResult,
  encodeCacheRecord,
  nameMayMatch,
} from "./cache.ts";

const rt = { containerID: "c1", netns: "/run/netns/c1", ifName: "eth0" };
const config = new TextEncoder().encode('{"name":"net1","cniVersion":"1.1.0","plugins":[{"type":"a"}]}');
const result = {
  cniVersion: "1.1.0",
  interfaces: [{ name: "eth0", mac: "c2:00:00:00:00:01" }],
  ips: [{ address: "198.18.0.2/24", interface: 0 }],
};

describe("cache file names", () => {
  test("are <network>-<containerID>-<ifname> (CACHE-1)", () => {
    expect(cacheFileName("net1", rt)).toBe("net1-c1-eth0");
  });

  test("need all three parts (CACHE-2)", () => {
    expect(() => cacheFileName("net1", { containerID: "", ifName: "eth0" })).toThrow(
      'cache file path requires network name ("net1"), container ID (""), and interface name ("eth0")',
    );
  });

  test("are ambiguous across networks and containers with dashes, as upstream's are (CACHE-8)", () => {
    expect(cacheFileName("a-b", { containerID: "c", ifName: "eth0" })).toBe(
      cacheFileName("a", { containerID: "b-c", ifName: "eth0" }),
    );
  });

  test("match a container only with -<cid>- strictly inside the name (GA-2)", () => {
    expect(nameMayMatch("net1-c1-eth0", "c1")).toBe(true);
    expect(nameMayMatch("-c1-eth0", "c1")).toBe(false);
    expect(nameMayMatch("net1-c1-", "c1")).toBe(false);
    expect(nameMayMatch("net1-c2-eth0", "c1")).toBe(false);
    expect(nameMayMatch("anything", "")).toBe(true);
  });
});

describe("cache records", () => {
  test("are written as Go writes cachedInfo: struct order, base64 config, empty fields omitted (CACHE-3)", () => {
    const text = encodeCacheRecord("net1", config, { ...rt, netns: "" }, result);
    expect(text).toBe(
      `{"kind":"cniCacheV1","containerId":"c1","config":"${Buffer.from(config).toString("base64")}","ifName":"eth0","networkName":"net1",` +
        `"result":{"cniVersion":"1.1.0","interfaces":[{"mac":"c2:00:00:00:00:01","name":"eth0"}],"ips":[{"address":"198.18.0.2/24","interface":0}]}}`,
    );
  });

  test("carry netns, CNI args and capability args when set (CACHE-3)", () => {
    const record = JSON.parse(
      encodeCacheRecord("net1", config, { ...rt, args: [["A", "1"]], capabilityArgs: { mac: "x" } }, result),
    ) as Record<string, unknown>;
    expect([record.netns, record.cniArgs, record.capabilityArgs]).toEqual([
      "/run/netns/c1",
      [["A", "1"]],
      { mac: "x" },
    ]);
  });

  test("give back the result converted to the list's version (CACHE-5)", () => {
    const text = encodeCacheRecord("net1", config, rt, result);
    expect(decodeCachedResult(text, "1.1.0")).toEqual(result);
    expect(decodeCachedResult(text, "0.4.0")).toMatchObject({
      cniVersion: "0.4.0",
      ips: [{ version: "4", address: "198.18.0.2/24", interface: 0 }],
    });
  });

  test("of another kind or not JSON are read as a bare legacy result (CACHE-5)", () => {
    expect(decodeCachedResult(JSON.stringify(result), "1.1.0")).toEqual(result);
    expect(() => decodeCachedResult("", "1.1.0")).toThrow();
    expect(() => decodeCachedResult("{garbage", "1.1.0")).toThrow();
  });

  test("report a failed conversion with the target version (CACHE-5)", () => {
    const v6only = { cniVersion: "1.1.0", ips: [] };
    expect(() => decodeCachedResult(JSON.stringify(v6only), "0.2.0")).toThrow(
      'failed to convert cached result to config version "0.2.0": ',
    );
  });

  test("give back the cached config and runtime arguments, or say what is wrong (CACHE-6)", () => {
    const text = encodeCacheRecord("net1", config, { ...rt, args: [["A", "1"]], capabilityArgs: { mac: "x" } }, result);
    const got = decodeCachedConfig(text, "net1", { ...rt, capabilityArgs: { old: 1 } });
    expect(new TextDecoder().decode(got.config)).toBe(new TextDecoder().decode(config));
    expect(got.rt).toEqual({ ...rt, args: [["A", "1"]], capabilityArgs: { mac: "x" } });
    expect(() => decodeCachedConfig("{", "net1", rt)).toThrow('failed to unmarshal cached network "net1" config: ');
    expect(() => decodeCachedConfig('{"kind":"v0"}', "net1", rt)).toThrow(
      'read cached network "net1" config has wrong kind: v0',
    );
  });

  test("are skipped as attachments when foreign, incomplete or of another container (GA-3)", () => {
    const good = encodeCacheRecord("net1", config, rt, result);
    expect(decodeAttachment(good, "")).toMatchObject({
      containerID: "c1",
      network: "net1",
      ifName: "eth0",
      netns: "/run/netns/c1",
    });
    expect(decodeAttachment(good, "c2")).toBeUndefined();
    expect(decodeAttachment(JSON.stringify(result), "")).toBeUndefined();
    expect(decodeAttachment("not json", "")).toBeUndefined();
    expect(decodeAttachment('{"kind":"cniCacheV1","containerId":"c1","networkName":"net1"}', "")).toBeUndefined();
  });
});
