import { expect, test } from "bun:test";
import type { PluginCase } from "./case.ts";
import { shrinkCase } from "./shrink.ts";

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const dec = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as Record<string, unknown>;

const big: PluginCase = {
  plugin: "ptp",
  env: {
    CNI_COMMAND: "ADD",
    CNI_CONTAINERID: "c".repeat(300),
    CNI_NETNS: "@NETNS@",
    CNI_IFNAME: "net1",
    CNI_ARGS: "=x",
  },
  stdin: enc({
    cniVersion: "0.3.1",
    name: "n",
    type: "ptp",
    mtu: 1400,
    ipMasq: true,
    ipam: { type: "static", addresses: [{ address: "198.18.0.9/24" }, { address: "2001:db8::9/64" }], dns: {} },
  }),
};

test("shrinking keeps only what the failure needs: plain env values and the one address that fails", async () => {
  // The planted failure: an IPv6 static address and nothing else matters.
  const fails = async (c: PluginCase) => new TextDecoder().decode(c.stdin).includes("2001:db8::9");
  const r = await shrinkCase(big, "leak", fails, 100);
  expect(r.case.env).toEqual({
    CNI_COMMAND: "ADD",
    CNI_CONTAINERID: "f00d",
    CNI_NETNS: "@NETNS@",
    CNI_IFNAME: "eth0",
    CNI_ARGS: "",
  });
  expect(dec(r.case.stdin)).toEqual({
    cniVersion: "0.3.1",
    name: "n",
    type: "ptp",
    ipam: { type: "static", addresses: [{ address: "2001:db8::9/64" }] },
  });
});

test("shrinking stops at its budget of execs and never returns a case that passes", async () => {
  let calls = 0;
  const r = await shrinkCase(big, "leak", async () => ++calls < 0, 5);
  expect(r.tries).toBe(5);
  expect(calls).toBe(5);
  expect(r.case).toBe(big);
});
