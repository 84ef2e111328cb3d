import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CniError } from "@tscni/spec";
import { CniRuntime } from "./cni-runtime.ts";
import { makeSandbox } from "./testing/sandbox.ts";
import type { Sandbox } from "./testing/sandbox.ts";

let sb: Sandbox;
let cni: CniRuntime;
const rt = { containerID: "c1", netns: "/run/netns/c1", ifName: "eth0" };

beforeEach(() => {
  sb = makeSandbox();
  sb.install("a", "b");
  cni = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
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

describe("checkNetworkList", () => {
  test("runs the plugins in order, each with the cached ADD result (CHK-6, CHK-7)", async () => {
    const list = sb.list("net1", "1.0.0", ["a", "b"]);
    const final = await cni.addNetworkList(list, rt);
    sb.reset();
    await cni.checkNetworkList(list, rt);
    const calls = sb.calls();
    expect(calls.map((c) => `${c.command} ${c.tag}`)).toEqual(["CHECK a", "CHECK b"]);
    for (const c of calls) expect((c.stdin as Record<string, unknown>).prevResult).toEqual(final);
  });

  test("refuses a list below 0.4.0, even when disableCheck is set (AL-2)", async () => {
    const err = await failure(cni.checkNetworkList(sb.list("net1", "0.3.1", ["a"], { disableCheck: true }), rt));
    expect(err.msg).toBe('configuration version "0.3.1" does not support the CHECK command');
    expect(sb.calls()).toEqual([]);
  });

  test("runs nothing when the list sets disableCheck (CHK-6)", async () => {
    await cni.checkNetworkList(sb.list("net1", "1.1.0", ["a"], { disableCheck: true }), rt);
    expect(sb.calls()).toEqual([]);
  });

  test("returns the plugin's error unwrapped so its code can be read (E-8)", async () => {
    const list = sb.list("net1", "1.1.0", [
      "a",
      { type: "b", answer: { CHECK: { stdout: '{"code":51,"msg":"degraded"}', exit: 1 } } },
    ]);
    const err = await failure(cni.checkNetworkList(list, rt));
    expect([err.code, err.msg]).toEqual([51, "degraded"]);
  });

  test("fails on a cache record that does not decode (AL-2 step 3)", async () => {
    mkdirSync(join(sb.cacheDir, "results"), { recursive: true });
    writeFileSync(join(sb.cacheDir, "results", "net1-c1-eth0"), "");
    const err = await failure(cni.checkNetworkList(sb.list("net1", "1.1.0", ["a"]), rt));
    expect(err.msg).toStartWith('failed to get network "net1" cached result: ');
    expect(sb.calls()).toEqual([]);
  });
});
