import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { CniRuntime } from "./cni-runtime.ts";
import { makeSandbox } from "./testing/sandbox.ts";
import type { Sandbox } from "./testing/sandbox.ts";

let sb: Sandbox;
let cni: CniRuntime;
const att = (containerID: string, ifName = "eth0") => ({
  containerID,
  netns: `/run/netns/${containerID}`,
  ifName,
  args: [["K", containerID]] as [string, string][],
  capabilityArgs: { mac: containerID },
});

beforeEach(() => {
  sb = makeSandbox();
  sb.install("a", "b");
  cni = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
});
afterEach(() => sb.cleanup());

describe("gcNetworkList", () => {
  test("DELs every cached attachment of the network outside the valid set, with its cached netns and args (§7.7)", async () => {
    const list = sb.list("net1", "1.1.0", [{ type: "a", capabilities: { mac: true } }]);
    const other = sb.list("net2", "1.1.0", ["a"]);
    for (const id of ["keep", "stale"]) await cni.addNetworkList(list, att(id));
    await cni.addNetworkList(other, att("elsewhere"));
    sb.reset();
    await cni.gcNetworkList(list, { validAttachments: [{ containerID: "keep", ifname: "eth0" }] });
    const calls = sb.calls();
    expect(calls.map((c) => `${c.command} ${c.env.CNI_CONTAINERID}`)).toEqual(["DEL stale", "GC "]);
    const del = calls[0];
    expect([del?.env.CNI_NETNS, del?.env.CNI_ARGS, del?.env.CNI_IFNAME]).toEqual([
      "/run/netns/stale",
      "K=stale",
      "eth0",
    ]);
    expect((del?.stdin as Record<string, unknown>).runtimeConfig).toEqual({ mac: "stale" });
    expect((await cni.getCachedAttachments()).map((a) => `${a.network}/${a.containerID}`)).toEqual([
      "net1/keep",
      "net2/elsewhere",
    ]);
  });

  test("sends GC to every plugin in order with both attachment keys and empty attachment variables (GC-6, GC-9, EX-5)", async () => {
    const list = sb.list("net1", "1.1.0", ["a", "b"]);
    await cni.gcNetworkList(list, { validAttachments: [{ containerID: "x", ifname: "eth1" }] });
    const calls = sb.calls();
    expect(calls.map((c) => `${c.command} ${c.tag}`)).toEqual(["GC a", "GC b"]);
    const stdin = calls[0]?.stdin as Record<string, unknown>;
    expect(stdin["cni.dev/valid-attachments"]).toEqual([{ containerID: "x", ifname: "eth1" }]);
    expect(stdin["cni.dev/attachments"]).toEqual([{ containerID: "x", ifname: "eth1" }]);
    expect([
      calls[0]?.env.CNI_CONTAINERID,
      calls[0]?.env.CNI_NETNS,
      calls[0]?.env.CNI_IFNAME,
      calls[0]?.env.CNI_ARGS,
    ]).toEqual(["", "", "", ""]);
  });

  test("treats every cached attachment as stale when given no arguments, as cnitool does (CT-4)", async () => {
    const list = sb.list("net1", "1.1.0", ["a"]);
    for (const id of ["c1", "c2"]) await cni.addNetworkList(list, att(id));
    sb.reset();
    await cni.gcNetworkList(list, undefined);
    expect(sb.calls().map((c) => `${c.command} ${c.env.CNI_CONTAINERID}`)).toEqual(["DEL c1", "DEL c2", "GC "]);
    expect(sb.calls()[2]?.stdin).not.toHaveProperty("cni.dev/valid-attachments");
    expect(await cni.getCachedAttachments()).toEqual([]);
  });

  test("only deletes stale attachments below 1.1.0: no GC command (VN-7)", async () => {
    const list = sb.list("net1", "1.0.0", ["a"]);
    await cni.addNetworkList(list, att("c1"));
    sb.reset();
    await cni.gcNetworkList(list, { validAttachments: [] });
    expect(sb.calls().map((c) => c.command)).toEqual(["DEL"]);
  });

  test("does nothing when the list sets disableGC", async () => {
    const list = sb.list("net1", "1.1.0", ["a"], { disableGC: true });
    await cni.addNetworkList(list, att("c1"));
    sb.reset();
    await cni.gcNetworkList(list, undefined);
    expect(sb.calls()).toEqual([]);
    expect(await cni.getCachedAttachments()).toHaveLength(1);
  });

  test("keeps going after errors and reports all of them, one per line (GC-3, GC-6)", async () => {
    const add = sb.list("net1", "1.1.0", ["a", "b"]);
    await cni.addNetworkList(add, att("c1"));
    const failing = sb.list("net1", "1.1.0", [
      {
        type: "a",
        answer: {
          DEL: { stdout: '{"code":5,"msg":"del broke"}', exit: 1 },
          GC: { stdout: '{"code":5,"msg":"gc broke"}', exit: 1 },
        },
      },
      "b",
    ]);
    sb.reset();
    let err: CniError | undefined;
    try {
      await cni.gcNetworkList(failing, undefined);
    } catch (e) {
      err = e as CniError;
    }
    expect(sb.calls().map((c) => `${c.command} ${c.tag}`)).toEqual(["DEL b", "DEL a", "GC a", "GC b"]);
    expect(err?.msg).toBe(
      'failed to delete stale attachment c1 eth0: plugin type="a" failed (delete): del broke\nfailed to GC plugin a: gc broke',
    );
    expect(err?.code).toBe(5);
  });
});
