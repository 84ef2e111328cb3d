import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { CniError } from "@tscni/spec";
import { chainedPrev, ipvlanMaster, ipvlanMode, parseIpvlanConfig } from "./config.ts";
import { ipvlanCreateOp } from "./plan.ts";

const base = { cniVersion: "1.0.0", name: "i", type: "ipvlan" };
const NS = "/var/run/netns/c1";

describe("the ipvlan config", () => {
  test("defaults to l2 and reads master, mtu and linkInContainer", () => {
    expect(parseIpvlanConfig({ ...base, master: "eth9", mtu: 1400, linkInContainer: true, mode: "l3s" })).toMatchObject(
      { master: "eth9", mtu: 1400, linkInContainer: true, mode: "l3s", ipamType: "" },
    );
    expect(ipvlanMode("")).toBe("l2");
  });

  test("an unknown mode fails with the reference's message and code 7", () => {
    try {
      ipvlanMode("l4");
      throw new Error("accepted");
    } catch (e) {
      expect((e as CniError).msg).toBe('unknown ipvlan mode: "l4"');
      expect((e as CniError).code).toBe(7);
    }
  });

  test("chained, the master is the previous result's single named interface", async () => {
    const k = new FakeKernel();
    const conf = parseIpvlanConfig(base);
    expect(await ipvlanMaster(k, conf, { cniVersion: "1.0.0", interfaces: [{ name: "eth9" }] }, NS)).toBe("eth9");
    await expect(
      ipvlanMaster(k, conf, { cniVersion: "1.0.0", interfaces: [{ name: "a" }, { name: "b" }] }, NS),
    ).rejects.toThrow("chained master failure. PrevResult lacks a single named interface");
  });

  test("unchained without a master, the default route's interface; none fails as the reference", async () => {
    const k = new FakeKernel();
    await expect(ipvlanMaster(k, parseIpvlanConfig(base), undefined, NS)).rejects.toThrow(
      "no default route interface found",
    );
    k.applySync([
      { op: "veth.add", ns: HOST, name: "up0", peer: { name: "up1", ns: HOST } },
      { op: "link.set", ns: HOST, name: "up0", up: true },
      { op: "route.add", ns: HOST, dst: "0.0.0.0/0", dev: "up0" },
    ]);
    expect(await ipvlanMaster(k, parseIpvlanConfig(base), undefined, NS)).toBe("up0");
  });

  test("a prevResult that does not parse fails with the reference's prefix", () => {
    expect(() => chainedPrev({ ...base, prevResult: { cniVersion: "1.0.0", ips: "x" } } as never)).toThrow(
      "could not parse prevResult:",
    );
  });

  test("the create op puts the ipvlan in the container under the temporary name", () => {
    expect(ipvlanCreateOp(parseIpvlanConfig({ ...base, mode: "l3", mtu: 1400 }), "eth9", NS, "t0")).toEqual({
      op: "ipvlan.add",
      ns: HOST,
      name: "t0",
      parent: "eth9",
      mode: "l3",
      mtu: 1400,
      into: NS,
    });
    expect(ipvlanCreateOp(parseIpvlanConfig({ ...base, linkInContainer: true }), "eth9", NS, "t0")).toEqual({
      op: "ipvlan.add",
      ns: NS,
      name: "t0",
      parent: "eth9",
      mode: "l2",
    });
  });
});
