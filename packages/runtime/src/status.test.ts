import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { CniRuntime } from "./cni-runtime.ts";
import { makeSandbox } from "./testing/sandbox.ts";
import type { Sandbox } from "./testing/sandbox.ts";

let sb: Sandbox;
let cni: CniRuntime;

beforeEach(() => {
  sb = makeSandbox();
  sb.install("a", "b", "c");
  cni = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
});
afterEach(() => sb.cleanup());

describe("getStatusNetworkList", () => {
  test("runs no plugin below 1.1.0 and reports ready (GS-1)", async () => {
    await cni.getStatusNetworkList(sb.list("net1", "1.0.0", ["a"]));
    expect(sb.calls()).toEqual([]);
  });

  test("asks each plugin in order with only name and cniVersion added (GS-2, RC-7)", async () => {
    await cni.getStatusNetworkList(sb.list("net1", "1.1.0", [{ type: "a", capabilities: { mac: true } }, "b"]));
    const calls = sb.calls();
    expect(calls.map((c) => `${c.command} ${c.tag}`)).toEqual(["STATUS a", "STATUS b"]);
    expect(calls[0]?.stdin).toEqual({
      type: "a",
      name: "net1",
      cniVersion: "1.1.0",
      capabilities: { mac: true },
      fake: { log: sb.log },
    });
  });

  test("stops at the first plugin that is not ready and returns its error unwrapped (GS-2, ST-2)", async () => {
    const list = sb.list("net1", "1.1.0", [
      "a",
      { type: "b", answer: { STATUS: { stdout: '{"code":50,"msg":"no IPs left"}', exit: 1 } } },
      "c",
    ]);
    let err: CniError | undefined;
    try {
      await cni.getStatusNetworkList(list);
    } catch (e) {
      err = e as CniError;
    }
    expect([err?.code, err?.msg]).toEqual([50, "no IPs left"]);
    expect(sb.calls().map((c) => c.tag)).toEqual(["a", "b"]);
  });
});
