import { describe, expect, test } from "bun:test";
import { HOST, type KernelOp, type LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { opsOf, undoOf } from "../shared/steps.ts";
import { parseBridgeConfig, type BridgeConfig } from "./config.ts";
import { planBridgeAdd, type BridgeAddInput, type BridgeView } from "./plan.ts";

const NS = "/var/run/netns/c1";

function link(name: string, kind: string, extra: Partial<LinkInfo> = {}): LinkInfo {
  return {
    index: 1,
    name,
    kind,
    mac: "0a:00:00:00:00:01",
    mtu: 1500,
    up: true,
    operState: "UP",
    promisc: false,
    ...extra,
  };
}

function view(extra: Partial<BridgeView> = {}): BridgeView {
  return {
    hostLinks: [link("lo", "loopback")],
    gatewayAddrs: [],
    containerLinks: [link("lo", "loopback", { up: false })],
    sysctls: { ipv4Forward: "0", ipv6Forward: "0" },
    loDisableIpv6: "0",
    ...extra,
  };
}

function conf(extra: Record<string, unknown> = {}): BridgeConfig {
  return parseBridgeConfig(
    { cniVersion: "1.0.0", name: "net", type: "bridge", ipam: { type: "host-local" }, ...extra },
    "",
  );
}

const v4: Result100 = { cniVersion: "1.1.0", ips: [{ address: "198.18.0.5/24" }], routes: [{ dst: "198.51.0.0/16" }] };
const dual: Result100 = {
  cniVersion: "1.1.0",
  ips: [
    { address: "198.18.0.5/24", gateway: "198.18.0.1" },
    { address: "2001:db8::5/64", gateway: "2001:db8::1" },
  ],
};

function plan(c: BridgeConfig, ipam: Result100 | null = v4, v: BridgeView = view()) {
  const input: BridgeAddInput = {
    conf: c,
    netns: NS,
    ifName: "eth0",
    ipam: ipam ?? undefined,
    view: v,
    hostVeth: "veth01020304",
    gatewayPeer: "veth0a0b0c0d",
    bridgeMac: "02:00:00:00:00:aa",
  };
  return planBridgeAdd(input);
}

const has = (ops: KernelOp[], want: Partial<KernelOp>): boolean =>
  ops.some((op) =>
    Object.entries(want).every(
      ([k, v]) => JSON.stringify((op as unknown as Record<string, unknown>)[k]) === JSON.stringify(v),
    ),
  );

describe("planBridgeAdd", () => {
  test("creates the bridge, pins its MAC and attaches a veth whose only undo is deleting the host end", () => {
    const p = plan(conf());
    const ops = opsOf(p.steps);
    expect(ops[0]).toEqual({ op: "bridge.add", ns: HOST, name: "cni0" });
    expect(has(ops, { op: "link.set", name: "cni0", mac: "02:00:00:00:00:aa" })).toBe(true);
    expect(has(ops, { op: "veth.add", ns: NS, name: "eth0" })).toBe(true);
    expect(has(ops, { op: "link.set", name: "veth01020304", master: "cni0" })).toBe(true);
    expect(undoOf(p.steps)).toEqual([{ op: "link.del", ns: HOST, name: "veth01020304" }]);
  });

  test("lists bridge, host veth and container interface, every IP on index 2", () => {
    const p = plan(conf());
    expect(p.result.interfaces?.map((i) => i.name)).toEqual(["cni0", "veth01020304", "eth0"]);
    expect(p.result.interfaces?.[2]?.sandbox).toBe(NS);
    expect(p.result.ips).toEqual([{ address: "198.18.0.5/24", interface: 2 }]);
  });

  test("isGateway computes the gateway, puts it on the bridge and turns forwarding on", () => {
    const p = plan(conf({ isGateway: true }));
    const ops = opsOf(p.steps);
    expect(p.result.ips?.[0]?.gateway).toBe("198.18.0.1");
    expect(has(ops, { op: "addr.add", ns: HOST, dev: "cni0", cidr: "198.18.0.1/24" })).toBe(true);
    expect(has(ops, { op: "sysctl.set", key: "net.ipv4.ip_forward", value: "1" })).toBe(true);
    // The IPAM route without gw goes through the family's gateway (H-2).
    expect(has(ops, { op: "route.add", ns: NS, dst: "198.51.0.0/16", gw: "198.18.0.1" })).toBe(true);
  });

  test("forwarding already on is left alone (H-4)", () => {
    const p = plan(conf({ isGateway: true }), v4, view({ sysctls: { ipv4Forward: "1", ipv6Forward: "1" } }));
    expect(has(opsOf(p.steps), { op: "sysctl.set", key: "net.ipv4.ip_forward" })).toBe(false);
  });

  test("isDefaultGateway appends a default route per family unless IPAM gave one with a gw", () => {
    const p = plan(conf({ isDefaultGateway: true }), dual);
    expect(p.result.routes).toEqual([
      { dst: "0.0.0.0/0", gw: "198.18.0.1" },
      { dst: "::/0", gw: "2001:db8::1" },
    ]);
    const withDefault = plan(conf({ isDefaultGateway: true }), {
      ...v4,
      routes: [{ dst: "0.0.0.0/0", gw: "198.18.0.254" }],
    });
    expect(withDefault.result.routes).toEqual([{ dst: "0.0.0.0/0", gw: "198.18.0.254" }]);
  });

  test("an existing link that is not a bridge fails with the reference's message", () => {
    expect(() => plan(conf(), v4, view({ hostLinks: [link("cni0", "dummy")] }))).toThrow(
      'failed to create bridge "cni0": "cni0" already exists but is not a bridge',
    );
  });

  test("an existing container interface fails with the reference's message (ADD-4)", () => {
    // v1.1.1 (Debian) differs: `container veth name provided (eth0) already exists`; SPEC H-1 follows upstream main
    expect(() => plan(conf(), v4, view({ containerLinks: [link("eth0", "veth")] }))).toThrow(
      'container veth name ("eth0") peer provided ("veth01020304") already exists',
    );
  });

  test("an existing bridge that is up is reused without changes", () => {
    const p = plan(conf(), v4, view({ hostLinks: [link("cni0", "bridge", { mac: "0a:00:00:00:00:99" })] }));
    const ops = opsOf(p.steps);
    expect(ops.some((o) => o.op === "bridge.add")).toBe(false);
    expect(has(ops, { op: "link.set", name: "cni0", up: true })).toBe(false);
    expect(p.result.interfaces?.[0]?.mac).toBe("0a:00:00:00:00:99");
  });

  test("a different IPv4 address on the bridge fails, unless forceAddress replaces it", () => {
    const v = view({
      hostLinks: [link("cni0", "bridge")],
      gatewayAddrs: [{ dev: "cni0", cidr: "198.18.9.1/24", family: 4, scope: "global" }],
    });
    expect(() => plan(conf({ isGateway: true }), v4, v)).toThrow(
      'failed to set bridge addr: "cni0" already has an IP address different from 198.18.0.1/24',
    );
    const ops = opsOf(plan(conf({ isGateway: true, forceAddress: true }), v4, v).steps);
    expect(has(ops, { op: "addr.del", dev: "cni0", cidr: "198.18.9.1/24" })).toBe(true);
    expect(has(ops, { op: "addr.add", dev: "cni0", cidr: "198.18.0.1/24" })).toBe(true);
  });

  test("non-overlapping IPv6 addresses coexist on the bridge", () => {
    const v = view({
      hostLinks: [link("cni0", "bridge")],
      gatewayAddrs: [{ dev: "cni0", cidr: "fe80::1/64", family: 6, scope: "link" }],
    });
    const ops = opsOf(plan(conf({ isGateway: true }), dual, v).steps);
    expect(has(ops, { op: "addr.add", dev: "cni0", cidr: "2001:db8::1/64" })).toBe(true);
  });

  test("the gateway already on the bridge is not added again", () => {
    const v = view({
      hostLinks: [link("cni0", "bridge")],
      gatewayAddrs: [{ dev: "cni0", cidr: "198.18.0.1/24", family: 4, scope: "global" }],
    });
    expect(has(opsOf(plan(conf({ isGateway: true }), v4, v).steps), { op: "addr.add", dev: "cni0" })).toBe(false);
  });

  test("IPv6 enables the family on lo and the interface, keeps its addresses on down, and disables DAD unless enabledad (H-2)", () => {
    const ops = opsOf(plan(conf(), dual, view({ loDisableIpv6: "1" })).steps);
    expect(has(ops, { op: "sysctl.set", ns: NS, key: "net.ipv6.conf.lo.disable_ipv6", value: "0" })).toBe(true);
    expect(has(ops, { op: "sysctl.set", ns: NS, key: "net.ipv6.conf.eth0.disable_ipv6", value: "0" })).toBe(true);
    // v1.1.1 (Debian) differs: it leaves keep_addr_on_down 0; SPEC H-2 follows upstream main
    expect(has(ops, { op: "sysctl.set", ns: NS, key: "net.ipv6.conf.eth0.keep_addr_on_down", value: "1" })).toBe(true);
    expect(has(opsOf(plan(conf(), v4).steps), { op: "sysctl.set", key: "net.ipv6.conf.eth0.keep_addr_on_down" })).toBe(
      false,
    );
    expect(has(ops, { op: "sysctl.set", ns: NS, key: "net.ipv6.conf.eth0.accept_dad", value: "0" })).toBe(true);
    const dad = opsOf(plan(conf({ enabledad: true }), dual).steps);
    expect(has(dad, { op: "sysctl.set", key: "net.ipv6.conf.eth0.enhanced_dad", value: "1" })).toBe(true);
    expect(has(dad, { op: "sysctl.set", key: "net.ipv6.conf.eth0.accept_dad", value: "1" })).toBe(true);
  });

  test("lo's disable_ipv6 is restored by the rollback when the ADD changed it", () => {
    const p = plan(conf(), dual, view({ loDisableIpv6: "1" }));
    expect(undoOf(p.steps)).toContainEqual({
      op: "sysctl.set",
      ns: NS,
      key: "net.ipv6.conf.lo.disable_ipv6",
      value: "1",
    });
  });

  test("a kernel without IPv6 gets no IPv6 sysctls", () => {
    const ops = opsOf(plan(conf(), v4, view({ sysctls: { ipv4Forward: "0", ipv6Forward: undefined } })).steps);
    expect(ops.some((o) => o.op === "sysctl.set" && o.key.includes("ipv6"))).toBe(false);
  });

  test("hairpinMode, portIsolation, promiscMode and mtu reach the kernel", () => {
    const ops = opsOf(plan(conf({ hairpinMode: true, portIsolation: true, mtu: 1400 })).steps);
    expect(has(ops, { op: "bridge-port.set", name: "veth01020304", hairpin: true, isolated: true })).toBe(true);
    expect(has(ops, { op: "bridge.add", mtu: 1400 })).toBe(true);
    expect(has(ops, { op: "veth.add", mtu: 1400 })).toBe(true);
    expect(has(opsOf(plan(conf({ promiscMode: true })).steps), { op: "link.set", name: "cni0", promisc: true })).toBe(
      true,
    );
  });

  test("vlan makes an access port and a <bridge>.<vlan> gateway listed in the result", () => {
    const p = plan(conf({ vlan: 100, isGateway: true, preserveDefaultVlan: false }));
    const ops = opsOf(p.steps);
    expect(has(ops, { op: "bridge.add", vlanFiltering: true })).toBe(true);
    expect(has(ops, { op: "bridge-vlan.del", dev: "veth01020304", vid: 1 })).toBe(true);
    expect(has(ops, { op: "bridge-vlan.add", dev: "veth01020304", vid: 100, pvid: true, untagged: true })).toBe(true);
    expect(has(ops, { op: "veth.add", ns: HOST, name: "cni0.100" })).toBe(true);
    expect(has(ops, { op: "addr.add", dev: "cni0.100", cidr: "198.18.0.1/24" })).toBe(true);
    expect(p.result.interfaces?.map((i) => i.name)).toEqual(["cni0", "veth01020304", "eth0", "cni0.100"]);
  });

  test("a trunk without vlan tags its ids and keeps VLAN 1 native", () => {
    const ops = opsOf(plan(conf({ vlanTrunk: [{ id: 5 }, { minID: 10, maxID: 11 }] })).steps);
    for (const vid of [5, 10, 11]) expect(has(ops, { op: "bridge-vlan.add", dev: "veth01020304", vid })).toBe(true);
    expect(has(ops, { op: "bridge-vlan.add", vid: 1, pvid: true, untagged: true })).toBe(true);
    expect(has(ops, { op: "bridge-vlan.del" })).toBe(false);
  });

  test("L2 brings the container end up and lists interfaces only", () => {
    const p = plan(conf({ ipam: {} }), null);
    expect(has(opsOf(p.steps), { op: "link.set", ns: NS, name: "eth0", up: true })).toBe(true);
    expect(p.result.ips).toBeUndefined();
  });

  test("disableContainerInterface leaves the container end down", () => {
    const p = plan(conf({ ipam: {}, disableContainerInterface: true }), null);
    expect(has(opsOf(p.steps), { op: "link.set", ns: NS, name: "eth0" })).toBe(false);
  });

  test("an IPAM result without IPs fails with the reference's message", () => {
    expect(() => plan(conf(), { cniVersion: "1.1.0", ips: [] })).toThrow("IPAM plugin returned missing IP config");
  });

  test("the config's DNS replaces the IPAM one, which stays when the config sets none (§8.1 dns)", () => {
    expect(plan(conf({ dns: { nameservers: ["198.18.0.53"] } }), { ...v4, dns: { domain: "x" } }).result.dns).toEqual({
      nameservers: ["198.18.0.53"],
    });
    // v1.1.1 (Debian) differs: it drops IPAM's DNS, leaving the result without one; SPEC §8.1 follows upstream main
    expect(plan(conf(), { ...v4, dns: { domain: "x" } }).result.dns).toEqual({ domain: "x" });
    expect(plan(conf({ dns: {} }), { ...v4, dns: { domain: "x" } }).result.dns).toEqual({ domain: "x" });
  });

  test("a MAC from the config is set on the container end", () => {
    const p = plan(conf({ runtimeConfig: { mac: "0A-00-00-00-00-07" } }));
    expect(has(opsOf(p.steps), { op: "veth.add", mac: "0a:00:00:00:00:07" })).toBe(true);
  });
});
