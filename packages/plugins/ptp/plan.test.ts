import { describe, expect, test } from "bun:test";
import { HOST, type KernelOp } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { opsOf, undoOf } from "../shared/steps.ts";
import { parsePtpConfig } from "./config.ts";
import { planPtpAdd, type PtpView } from "./plan.ts";

const NS = "/var/run/netns/c1";
const conf = (extra: Record<string, unknown> = {}) =>
  parsePtpConfig({ cniVersion: "1.0.0", name: "p", type: "ptp", ipam: { type: "host-local" }, ...extra });
const view = (extra: Partial<PtpView> = {}): PtpView => ({
  containerLinks: [],
  sysctls: { ipv4Forward: "0", ipv6Forward: "0" },
  loDisableIpv6: "0",
  hostRoutes: new Set(),
  ...extra,
});
const dual: Result100 = {
  cniVersion: "1.1.0",
  ips: [
    { address: "198.18.4.5/24", gateway: "198.18.4.1" },
    { address: "2001:db8:4::5/64", gateway: "2001:db8:4::1" },
  ],
  routes: [{ dst: "0.0.0.0/0" }],
};
const plan = (ipam: Result100 = dual, v: PtpView = view(), c = conf()) =>
  planPtpAdd({ conf: c, netns: NS, ifName: "eth0", ipam, view: v, hostVeth: "veth0000beef" });
const has = (ops: KernelOp[], want: Record<string, unknown>): boolean =>
  ops.some((op) =>
    Object.entries(want).every(
      ([k, v]) => JSON.stringify((op as unknown as Record<string, unknown>)[k]) === JSON.stringify(v),
    ),
  );

describe("planPtpAdd", () => {
  test("replaces the subnet route with a link route to the gateway and the subnet via the gateway", () => {
    const ops = opsOf(plan().steps);
    expect(has(ops, { op: "route.del", ns: NS, dst: "198.18.4.0/24", dev: "eth0" })).toBe(true);
    expect(
      has(ops, { op: "route.add", ns: NS, dst: "198.18.4.1/32", dev: "eth0", scope: "link", src: "198.18.4.5" }),
    ).toBe(true);
    expect(
      has(ops, { op: "route.add", ns: NS, dst: "198.18.4.0/24", gw: "198.18.4.1", dev: "eth0", src: "198.18.4.5" }),
    ).toBe(true);
    expect(has(ops, { op: "route.add", ns: NS, dst: "2001:db8:4::1/128", scope: "link" })).toBe(true);
    // The host's route to the container has scope host, as the reference's.
    expect(has(ops, { op: "route.add", ns: "host", dst: "198.18.4.5/32", scope: "host" })).toBe(true);
    // The deletion comes after the address that created the route.
    const addIdx = ops.findIndex((o) => o.op === "addr.add" && o.ns === NS && o.cidr === "198.18.4.5/24");
    const delIdx = ops.findIndex((o) => o.op === "route.del");
    expect(addIdx).toBeLessThan(delIdx);
  });

  test("puts the gateway as a host address on the host end and routes the container address to it", () => {
    const ops = opsOf(plan().steps);
    expect(has(ops, { op: "addr.add", ns: HOST, dev: "veth0000beef", cidr: "198.18.4.1/32" })).toBe(true);
    expect(has(ops, { op: "addr.add", ns: HOST, dev: "veth0000beef", cidr: "2001:db8:4::1/128" })).toBe(true);
    expect(has(ops, { op: "route.add", ns: HOST, dst: "198.18.4.5/32", dev: "veth0000beef" })).toBe(true);
    expect(has(ops, { op: "route.add", ns: HOST, dst: "2001:db8:4::5/128", dev: "veth0000beef" })).toBe(true);
  });

  test("a host route that already exists is not added again", () => {
    const ops = opsOf(plan(dual, view({ hostRoutes: new Set(["198.18.4.5/32"]) })).steps);
    expect(has(ops, { op: "route.add", ns: HOST, dst: "198.18.4.5/32" })).toBe(false);
  });

  test("turns forwarding on for each family in use", () => {
    const ops = opsOf(plan().steps);
    expect(has(ops, { key: "net.ipv4.ip_forward", value: "1" })).toBe(true);
    expect(has(ops, { key: "net.ipv6.conf.all.forwarding", value: "1" })).toBe(true);
  });

  test("lists host and container interfaces, every IP on index 1, and the IPAM routes", () => {
    const p = plan();
    expect(p.result.interfaces).toEqual([{ name: "veth0000beef" }, { name: "eth0", sandbox: NS }]);
    expect(p.result.ips?.every((ip) => ip.interface === 1)).toBe(true);
    expect(p.result.routes).toEqual([{ dst: "0.0.0.0/0" }]);
    expect(has(opsOf(p.steps), { op: "route.add", ns: NS, dst: "0.0.0.0/0", gw: "198.18.4.1" })).toBe(true);
  });

  test("only the veth pair needs undoing", () => {
    expect(undoOf(plan().steps)).toEqual([{ op: "link.del", ns: HOST, name: "veth0000beef" }]);
  });

  test("fails without IPs, and when the container name is taken", () => {
    expect(() => plan({ cniVersion: "1.1.0" })).toThrow("IPAM plugin returned missing IP config");
    const taken = view({
      containerLinks: [
        { index: 2, name: "eth0", kind: "veth", mac: "", mtu: 1500, up: true, operState: "UP", promisc: false },
      ],
    });
    // v1.1.1 (Debian) differs: `container veth name provided (eth0) already exists`; SPEC H-1 follows upstream main
    expect(() => plan(dual, taken)).toThrow(
      'container veth name ("eth0") peer provided ("veth0000beef") already exists',
    );
  });

  test("the mtu is set on both ends", () => {
    const ops = opsOf(plan(dual, view(), conf({ mtu: 1280 })).steps);
    expect(ops.find((o) => o.op === "veth.add")).toMatchObject({ mtu: 1280, peer: { mtu: 1280 } });
  });
});
