import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isCidr, isInterfaceName, parseKernelBatch } from "./schema.ts";
import { renderOp } from "./lines.ts";

describe("parseKernelBatch", () => {
  test("accepts every op kind the port declares", () => {
    const batch = [
      {
        op: "veth.add",
        ns: "/proc/1/ns/net",
        name: "eth0",
        mtu: 1500,
        peer: { name: "veth1", ns: "host", mac: "02:00:00:00:00:01" },
      },
      { op: "bridge.add", ns: "host", name: "cni0", vlanFiltering: true, defaultPvid: 0 },
      { op: "vlan.add", ns: "host", name: "cni0.5", parent: "cni0", id: 5 },
      { op: "link.set", ns: "host", name: "veth1", up: true, master: null },
      { op: "bridge-port.set", ns: "host", name: "veth1", hairpin: true },
      { op: "bridge-vlan.del", ns: "host", dev: "veth1", vid: 1 },
      { op: "link.move", ns: "host", name: "x", to: "/var/run/netns/a" },
      { op: "link.del", ns: "host", name: "x" },
      { op: "addr.add", ns: "host", dev: "cni0", cidr: "2001:db8::1/64", nodad: true },
      { op: "route.del", ns: "host", dst: "0.0.0.0/0", gw: "198.18.0.1", metric: 100 },
      { op: "route.add", ns: "host", dst: "0.0.0.0/0", gw: "198.18.0.1", dev: "eth1", prepend: true },
      { op: "sysctl.set", ns: "host", key: "net.ipv4.conf.cni0/5.forwarding", value: "1" },
    ];
    const r = parseKernelBatch(batch);
    expect(r).toEqual({ ok: true, batch: batch as never });
  });

  test("reports each issue with its path", () => {
    const r = parseKernelBatch([
      { op: "addr.add", ns: "relative", dev: "eth0", cidr: "198.18.0.5" },
      { op: "link.del", ns: "host", name: "x", extra: 1 },
    ]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues).toContain('0.ns: netns must be "host" or an absolute path');
      expect(r.issues).toContain("0.cidr: invalid CIDR");
      expect(r.issues.some((i) => i.startsWith("1.extra"))).toBe(true);
    }
  });
});

describe("names and CIDRs", () => {
  test("interface names follow the kernel's rules and stay batch-safe", () => {
    for (const ok of ["eth0", "cni0.100", "veth1234abcd567", "a-b_c@d"])
      expect([ok, isInterfaceName(ok)]).toEqual([ok, true]);
    for (const bad of ["", ".", "..", "a/b", "a:b", "a b", "#x", "sixteen-chars-xx", 'q"'])
      expect([bad, isInterfaceName(bad)]).toEqual([bad, false]);
  });

  test("a valid interface name always renders as one batch token", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 15 }).filter(isInterfaceName), (name) => {
        expect(renderOp({ op: "link.del", ns: "host", name }, "/x").line).toBe(`link del dev ${name}`);
      }),
    );
  });

  test("CIDRs need an address and a prefix length within the family", () => {
    expect([isCidr("198.18.0.5/24"), isCidr("2001:db8::1/128"), isCidr("0.0.0.0/0")]).toEqual([true, true, true]);
    expect([
      isCidr("198.18.0.5"),
      isCidr("198.18.0.5/33"),
      isCidr("2001:db8::1/129"),
      isCidr("x/1"),
      isCidr("1.2.3.4/8/9"),
    ]).toEqual([false, false, false, false, false]);
  });
});
