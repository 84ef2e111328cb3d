import { describe, expect, test } from "bun:test";
import { HOST, type KernelOp } from "@tscni/kernel";
import { plannedLink } from "./planned-link.ts";

const NS = "/var/run/netns/c";
const veth: KernelOp = { op: "veth.add", ns: NS, name: "eth0", peer: { name: "veth1", ns: HOST } };
const up: KernelOp = { op: "link.set", ns: NS, name: "eth0", up: true };
const addr = (cidr: string, extra: object = {}): KernelOp => ({ op: "addr.add", ns: NS, dev: "eth0", cidr, ...extra });
const dsts = (ops: KernelOp[], ipv6 = true) => plannedLink(ops, NS, "eth0", ipv6).routes.map((r) => r.dst);

describe("the planned interface's main-table routes (the kernel's own included)", () => {
  test("an up veth gets a prefix route per address but none for an IPv4 /32, and fe80::/64, in dump order", () => {
    expect(dsts([veth, up, addr("2001:db8::5/64"), addr("198.18.0.5/24"), addr("198.18.1.5/32")])).toEqual([
      "198.18.0.0/24",
      "2001:db8::/64",
      "fe80::/64",
    ]);
  });

  test("prefix routes wait for the link to be up; noprefixroute has none", () => {
    expect(dsts([veth, addr("198.18.0.5/24"), addr("198.18.2.5/24", { noprefixroute: true })], false)).toEqual([]);
    expect(dsts([veth, addr("198.18.0.5/24"), addr("198.18.2.5/24", { noprefixroute: true }), up], false)).toEqual([
      "198.18.0.0/24",
    ]);
  });

  test("a tap has no carrier, and IPv6 off on the interface or by default means no fe80::/64", () => {
    const tap: KernelOp = { op: "tap.add", ns: NS, name: "eth0" };
    expect(dsts([tap, up])).toEqual([]);
    expect(dsts([veth, up], false)).toEqual([]);
    expect(dsts([veth, { op: "sysctl.set", ns: NS, key: "net.ipv6.conf.eth0.disable_ipv6", value: "1" }, up])).toEqual(
      [],
    );
  });

  test("routes the ops add and delete are followed, another table's are not", () => {
    const ops: KernelOp[] = [
      veth,
      up,
      addr("198.18.0.5/24"),
      { op: "route.del", ns: NS, dst: "198.18.0.9/24", dev: "eth0" },
      { op: "route.add", ns: NS, dst: "198.18.0.0/24", gw: "198.18.0.1", dev: "eth0" },
      { op: "route.add", ns: NS, dst: "198.18.9.0/24", gw: "198.18.0.1", dev: "eth0", table: 7 },
    ];
    expect(plannedLink(ops, NS, "eth0", false).routes).toEqual([
      { dst: "198.18.0.0/24", family: 4, gw: "198.18.0.1", dev: "eth0", scope: "global", protocol: "boot" },
    ]);
  });

  test("enslaving to a VRF takes its routes and IPv6 addresses out of main", () => {
    const ops: KernelOp[] = [veth, up, addr("198.18.0.5/24"), addr("2001:db8::5/64")];
    const master: KernelOp = { op: "link.set", ns: NS, name: "eth0", master: "blue" };
    expect(plannedLink([...ops, master], NS, "eth0", true)).toEqual({
      exists: true,
      cidrs: ["198.18.0.5/24"],
      routes: [],
    });
  });

  test("a host device moved in and renamed is the interface; nothing planned is none", () => {
    const moved: KernelOp[] = [
      { op: "link.move", ns: HOST, name: "nic0", to: NS },
      { op: "link.set", ns: NS, name: "nic0", newName: "eth0", alias: "nic0" },
      up,
      addr("198.18.0.5/24"),
    ];
    expect(dsts(moved, false)).toEqual(["198.18.0.0/24"]);
    expect(plannedLink([], NS, "eth0", true).exists).toBe(false);
  });
});
