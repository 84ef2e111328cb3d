import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CniError } from "@tscni/spec";
import { CniRuntime } from "./cni-runtime.ts";
import { makeSandbox } from "./testing/sandbox.ts";
import type { Sandbox } from "./testing/sandbox.ts";

let sb: Sandbox;
let cni: CniRuntime;
const rt = { containerID: "c1", netns: "/run/netns/c1", ifName: "eth0" };
const cacheFile = (): string => join(sb.cacheDir, "results", "net1-c1-eth0");
const prevOf = (i: number): unknown => (sb.calls()[i]?.stdin as Record<string, unknown>).prevResult;

beforeEach(() => {
  sb = makeSandbox();
  sb.install("a", "b", "c");
  cni = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
});
afterEach(() => sb.cleanup());

function writeCache(text: string): void {
  mkdirSync(join(sb.cacheDir, "results"), { recursive: true });
  writeFileSync(cacheFile(), text);
}

describe("delNetworkList", () => {
  test("runs the plugins in reverse order, each with the same final ADD result, then drops the cache (DEL-5, CACHE-7)", async () => {
    const list = sb.list("net1", "1.1.0", ["a", "b", "c"]);
    const final = await cni.addNetworkList(list, rt);
    sb.reset();
    await cni.delNetworkList(list, rt);
    expect(sb.calls().map((c) => `${c.command} ${c.tag}`)).toEqual(["DEL c", "DEL b", "DEL a"]);
    for (const i of [0, 1, 2]) expect(prevOf(i)).toEqual(final);
    expect(existsSync(cacheFile())).toBe(false);
  });

  test("sends no prevResult below 0.4.0 and still removes the cache record [DIFF] (DEL-8)", async () => {
    const list = sb.list("net1", "0.3.1", ["a", "b"]);
    await cni.addNetworkList(list, rt);
    sb.reset();
    await cni.delNetworkList(list, rt);
    expect(prevOf(0)).toBeUndefined();
    expect(prevOf(1)).toBeUndefined();
    expect(existsSync(cacheFile())).toBe(false);
  });

  test("sends no prevResult when nothing is cached (DEL-4)", async () => {
    await cni.delNetworkList(sb.list("net1", "1.1.0", ["a"]), rt);
    expect(sb.calls().map((c) => c.command)).toEqual(["DEL"]);
    expect(prevOf(0)).toBeUndefined();
  });

  test("keeps the cache when a plugin fails, wrapping the error as a delete (CACHE-7, E-8)", async () => {
    const ok = sb.list("net1", "1.1.0", ["a", "b"]);
    await cni.addNetworkList(ok, rt);
    const failing = sb.list("net1", "1.1.0", [
      "a",
      { type: "b", answer: { DEL: { stdout: '{"code":999,"msg":"stuck"}', exit: 1 } } },
    ]);
    let err: CniError | undefined;
    try {
      await cni.delNetworkList(failing, rt);
    } catch (e) {
      err = e as CniError;
    }
    expect([err?.code, err?.msg]).toEqual([999, 'plugin type="b" failed (delete): stuck']);
    expect(existsSync(cacheFile())).toBe(true);
  });

  for (const [what, text] of [
    ["an empty", ""],
    ["a garbage", "{not json"],
  ] as const) {
    test(`removes ${what} cache file and goes on without prevResult (CACHE-7, cni #1055)`, async () => {
      writeCache(text);
      await cni.delNetworkList(sb.list("net1", "1.1.0", ["a", "b"]), rt);
      expect(sb.calls().map((c) => c.tag)).toEqual(["b", "a"]);
      expect(prevOf(0)).toBeUndefined();
      expect(existsSync(cacheFile())).toBe(false);
    });
  }

  test("reads a legacy bare-result cache file and converts it to the list's version (CACHE-5)", async () => {
    writeCache(
      JSON.stringify({
        cniVersion: "0.4.0",
        interfaces: [{ name: "eth0" }],
        ips: [{ version: "4", address: "198.18.0.5/24", interface: 0 }],
        dns: {},
      }),
    );
    await cni.delNetworkList(sb.list("net1", "1.0.0", ["a"]), rt);
    expect(prevOf(0)).toEqual({
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0" }],
      ips: [{ address: "198.18.0.5/24", interface: 0 }],
    });
  });
});
