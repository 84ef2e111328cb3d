import { describe, expect, test } from "bun:test";
import { HOST, KernelError } from "../index.ts";
import { FakeKernel } from "./fake-kernel.ts";

const C1 = "/var/run/netns/c1";

function withContainer(): FakeKernel {
  const k = new FakeKernel();
  k.addNetns(C1);
  return k;
}

async function kindOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    if (e instanceof KernelError) return e.kind;
    throw e;
  }
}

describe("FakeKernel namespaces", () => {
  test("the host namespace starts with lo up and the loopback addresses", async () => {
    const k = new FakeKernel();
    expect(await k.links(HOST)).toMatchObject([
      { index: 1, name: "lo", kind: "loopback", up: true, operState: "UNKNOWN" },
    ]);
    expect((await k.addresses(HOST)).map((a) => a.cidr)).toEqual(["127.0.0.1/8", "::1/128"]);
  });

  test("a new namespace has only lo, down and without addresses", async () => {
    const k = withContainer();
    expect(await k.links(C1)).toMatchObject([{ index: 1, name: "lo", up: false, operState: "DOWN" }]);
    expect(await k.addresses(C1)).toEqual([]);
  });

  test("bringing lo up gives it 127.0.0.1/8 and ::1/128 but no main-table route", async () => {
    const k = withContainer();
    await k.apply([{ op: "link.set", ns: C1, name: "lo", up: true }]);
    expect((await k.addresses(C1)).map((a) => `${a.cidr} ${a.scope}`)).toEqual(["127.0.0.1/8 host", "::1/128 host"]);
    expect(await k.routes(C1)).toEqual([]);
  });

  test("reads of a missing namespace fail with netns-gone", async () => {
    const k = new FakeKernel();
    expect(await k.netnsExists("/var/run/netns/nope")).toBe(false);
    expect(await kindOf(k.links("/var/run/netns/nope"))).toBe("netns-gone");
  });

  test("the hostNetns option names the host namespace too", async () => {
    const k = new FakeKernel({ hostNetns: "/proc/1/ns/net" });
    await k.apply([{ op: "bridge.add", ns: "/proc/1/ns/net", name: "cni0" }]);
    expect((await k.links(HOST)).map((l) => l.name)).toEqual(["lo", "cni0"]);
  });

  test("the same seed gives the same MACs", async () => {
    const a = new FakeKernel({ seed: 7 });
    const b = new FakeKernel({ seed: 7 });
    for (const k of [a, b]) await k.apply([{ op: "bridge.add", ns: HOST, name: "cni0" }]);
    expect(a.snapshot(HOST)).toEqual(b.snapshot(HOST));
    expect((await a.links(HOST))[1]?.mac).toMatch(/^[0-9a-f][26ae](:[0-9a-f]{2}){5}$/);
  });
});
