import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { configureSteps, createSteps, sublinkResult, upSteps } from "./sublink-plan.ts";
import { opsOf, undoOf } from "./steps.ts";

const NS = "/var/run/netns/c1";
const ipam: Result100 = {
  cniVersion: "1.1.0",
  ips: [
    { address: "198.18.4.5/24", gateway: "198.18.4.1" },
    { address: "2001:db8:4::5/64", gateway: "2001:db8:4::1" },
  ],
  routes: [{ dst: "0.0.0.0/0" }],
  dns: { nameservers: ["198.18.0.53"] },
};
const iface = { name: "eth0", mac: "02:00:00:00:00:01", sandbox: NS };

describe("the interface plugins' plan", () => {
  test("the link is created under its temporary name and renamed; undoing deletes it by either name, newest first", () => {
    const steps = createSteps(
      { op: "macvlan.add", ns: HOST, name: "veth0000beef", parent: "eth9", mode: "bridge", into: NS },
      NS,
      "eth0",
    );
    expect(opsOf(steps)[1]).toEqual({ op: "link.set", ns: NS, name: "veth0000beef", newName: "eth0" });
    expect(undoOf(steps)).toEqual([
      { op: "link.del", ns: NS, name: "eth0" },
      { op: "link.del", ns: NS, name: "veth0000beef" },
    ]);
  });

  test("a link born under CNI_IFNAME (dummy) needs no rename", () => {
    expect(createSteps({ op: "dummy.add", ns: NS, name: "eth0" }, NS, "eth0")).toHaveLength(1);
  });

  test("the result lists the one interface, every IP on index 0, IPAM's routes, and the config's DNS instead of IPAM's", () => {
    const r = sublinkResult(iface, ipam, { nameservers: ["198.18.0.99"] });
    expect(r.interfaces).toEqual([iface]);
    expect(r.ips?.map((ip) => ip.interface)).toEqual([0, 0]);
    expect(r.routes).toEqual([{ dst: "0.0.0.0/0" }]);
    expect(r.dns).toEqual({ nameservers: ["198.18.0.99"] });
    // The reference's `result.DNS = n.DNS`: without a config DNS, IPAM's is dropped too.
    expect(sublinkResult(iface, ipam, undefined).dns).toBeUndefined();
  });

  test("IPAM without IPs fails with the reference's message", () => {
    expect(() => sublinkResult(iface, { cniVersion: "1.1.0" }, undefined)).toThrow(
      "IPAM plugin returned missing IP config",
    );
  });

  test("configuring sets the notify sysctls first (IPv6 only with IPv6), then the addresses and the routes via the gateway", () => {
    const result = sublinkResult(iface, ipam, undefined);
    const ops = opsOf(configureSteps({ target: { netns: NS, ifName: "eth0", ipv6: true }, notify: true }, result));
    expect(ops.slice(0, 2)).toEqual([
      { op: "sysctl.set", ns: NS, key: "net.ipv4.conf.eth0.arp_notify", value: "1" },
      { op: "sysctl.set", ns: NS, key: "net.ipv6.conf.eth0.ndisc_notify", value: "1" },
    ]);
    expect(ops).toContainEqual(expect.objectContaining({ op: "addr.add", ns: NS, dev: "eth0", cidr: "198.18.4.5/24" }));
    expect(ops).toContainEqual(
      expect.objectContaining({ op: "route.add", ns: NS, dst: "0.0.0.0/0", gw: "198.18.4.1", dev: "eth0" }),
    );
    const v4only = opsOf(configureSteps({ target: { netns: NS, ifName: "eth0", ipv6: false }, notify: true }, result));
    expect(v4only.some((o) => o.op === "sysctl.set" && o.key.includes("ndisc_notify"))).toBe(false);
    expect(
      opsOf(configureSteps({ target: { netns: NS, ifName: "eth0", ipv6: true }, notify: false }, result)).some(
        (o) => o.op === "sysctl.set" && o.key.endsWith("_notify"),
      ),
    ).toBe(false);
  });

  test("L2 only brings the link up", () => {
    expect(opsOf(upSteps(NS, "eth0"))).toEqual([{ op: "link.set", ns: NS, name: "eth0", up: true }]);
  });
});
