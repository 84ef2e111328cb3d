import { describe, expect, test } from "bun:test";
import { HOST } from "../index.ts";
import { routeLine } from "./diff.ts";
import { scenario } from "./scenario.ts";
import { kindOf } from "../testing/kind-of.ts";

/** c1 with eth0 (peer veth1 in HOST), both ends up. */
function wired(up = true) {
  const s = scenario();
  const c1 = s.containers[0] as string;
  s.kernel.applySync([
    { op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } },
    ...(up
      ? ([
          { op: "link.set", ns: c1, name: "eth0", up: true },
          { op: "link.set", ns: HOST, name: "veth1", up: true },
        ] as const)
      : []),
  ]);
  const routes = (family?: 4 | 6) =>
    s.kernel
      .snapshot(c1)
      .routes.filter((r) => !family || r.family === family)
      .map(routeLine);
  const addrs = () => s.kernel.snapshot(c1).addresses.map((a) => `${a.cidr} ${a.dev} ${a.scope}`);
  return { ...s, c1, routes, addrs };
}

describe("addresses", () => {
  test("an address on an up link brings its prefix route", () => {
    const { kernel, c1, routes } = wired();
    kernel.applySync([{ op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" }]);
    expect(routes(4)).toEqual(["198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.5"]);
  });

  test("an address on a down link brings its route when the link goes up", () => {
    const { kernel, c1, routes } = wired(false);
    kernel.applySync([{ op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" }]);
    expect(routes()).toEqual([]);
    kernel.applySync([{ op: "link.set", ns: c1, name: "eth0", up: true }]);
    expect(routes(4)).toEqual(["198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.5"]);
  });

  test("noprefixroute and IPv4 /32 add no route, IPv6 /128 and /64 do (metric 256)", () => {
    const { kernel, c1, routes } = wired();
    kernel.applySync([
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24", noprefixroute: true },
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.1.5/32" },
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "2001:db8::5/64" },
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "2001:db8:1::5/128" },
    ]);
    expect(routes(4)).toEqual([]);
    expect(routes(6)).toEqual([
      "2001:db8::/64 dev eth0 proto kernel scope global metric 256",
      "2001:db8:1::5/128 dev eth0 proto kernel scope global metric 256",
      "fe80::/64 dev eth0 proto kernel scope global metric 256",
    ]);
  });

  test("an operationally up link gets its EUI-64 link-local address", () => {
    const { kernel, c1, addrs } = wired();
    const mac = kernel.snapshot(c1).links[1]?.mac ?? "";
    const b = mac.split(":").map((h) => parseInt(h, 16));
    const ll = `fe80::${(((b[0] ?? 0) ^ 2) * 256 + (b[1] ?? 0)).toString(16)}:${(b[2] ?? 0).toString(16)}ff:fe${(b[3] ?? 0).toString(16).padStart(2, "0")}:${((b[4] ?? 0) * 256 + (b[5] ?? 0)).toString(16)}/64`;
    expect(addrs()).toEqual([`${ll} eth0 link`]);
  });

  test("deleting the address removes its prefix route unless a promoted address of the subnet keeps it", () => {
    const { kernel, c1, routes } = wired();
    kernel.applySync([
      // Without promotion the secondary .6 would go with the primary .5 (secondaries.test.ts).
      { op: "sysctl.set", ns: c1, key: "net.ipv4.conf.eth0.promote_secondaries", value: "1" },
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" },
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.6/24" },
      { op: "addr.del", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" },
    ]);
    expect(routes(4)).toEqual(["198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.6"]);
    kernel.applySync([{ op: "addr.del", ns: c1, dev: "eth0", cidr: "198.18.0.6/24" }]);
    expect(routes(4)).toEqual([]);
  });

  test("deleting the last IPv4 address of a link flushes its IPv4 routes", () => {
    const { kernel, c1, routes } = wired();
    kernel.applySync([
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" },
      { op: "route.add", ns: c1, dst: "0.0.0.0/0", gw: "198.18.0.1" },
      { op: "addr.del", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" },
    ]);
    expect(routes(4)).toEqual([]);
  });

  test("a duplicate address is exists and a missing one not-found", () => {
    const { kernel, c1 } = wired();
    kernel.applySync([{ op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" }]);
    expect(kindOf(() => kernel.applySync([{ op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" }]))).toBe(
      "exists",
    );
    expect(kindOf(() => kernel.applySync([{ op: "addr.del", ns: c1, dev: "eth0", cidr: "198.18.0.9/24" }]))).toBe(
      "not-found",
    );
    expect(kindOf(() => kernel.applySync([{ op: "addr.add", ns: c1, dev: "eth9", cidr: "198.18.0.5/24" }]))).toBe(
      "not-found",
    );
    expect(kindOf(() => kernel.applySync([{ op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.500/24" }]))).toBe(
      "invalid",
    );
  });

  test("taking a link down flushes its routes and IPv6 addresses but keeps IPv4 addresses", () => {
    const { kernel, c1, routes, addrs } = wired();
    kernel.applySync([
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.5/24" },
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "2001:db8::5/64" },
      { op: "route.add", ns: c1, dst: "0.0.0.0/0", gw: "198.18.0.1" },
      { op: "link.set", ns: c1, name: "eth0", up: false },
    ]);
    expect(routes()).toEqual([]);
    expect(addrs()).toEqual(["198.18.0.5/24 eth0 global"]);
    kernel.applySync([{ op: "link.set", ns: c1, name: "eth0", up: true }]);
    expect(routes(4)).toEqual(["198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.5"]);
  });
});

test("an IPv6 address on lo gets a prefix route, ::1 and IPv4 ones do not (as on Linux 6.18)", () => {
  const { kernel, c1, routes } = wired();
  kernel.applySync([
    { op: "link.set", ns: c1, name: "lo", up: true },
    { op: "addr.add", ns: c1, dev: "lo", cidr: "2001:db8::1/64" },
    { op: "addr.add", ns: c1, dev: "lo", cidr: "198.18.3.1/24" },
  ]);
  expect(routes().filter((r) => r.includes("dev lo"))).toEqual([
    "2001:db8::/64 dev lo proto kernel scope global metric 256",
  ]);
});

test("a link.set with a missing master changes nothing", () => {
  const { kernel, c1 } = wired(false);
  expect(kindOf(() => kernel.applySync([{ op: "link.set", ns: c1, name: "eth0", up: true, master: "br9" }]))).toBe(
    "not-found",
  );
  expect(kernel.snapshot(c1).links[1]?.up).toBe(false);
});

describe("routes", () => {
  function addressed() {
    const w = wired();
    w.kernel.applySync([
      { op: "link.set", ns: w.c1, name: "lo", up: true },
      { op: "addr.add", ns: w.c1, dev: "eth0", cidr: "198.18.0.5/24" },
      { op: "addr.add", ns: w.c1, dev: "eth0", cidr: "2001:db8::5/64" },
    ]);
    return w;
  }

  test("a gateway route resolves its device through the connected route", () => {
    const { kernel, c1, routes } = addressed();
    kernel.applySync([
      { op: "route.add", ns: c1, dst: "0.0.0.0/0", gw: "198.18.0.1" },
      { op: "route.add", ns: c1, dst: "::/0", gw: "2001:db8::1" },
    ]);
    expect(routes()).toContain("0.0.0.0/0 via 198.18.0.1 dev eth0 proto boot scope global");
    expect(routes()).toContain("::/0 via 2001:db8::1 dev eth0 proto boot scope global metric 1024");
  });

  test("an unreachable gateway is refused unless onlink", () => {
    const { kernel, c1 } = addressed();
    expect(kindOf(() => kernel.applySync([{ op: "route.add", ns: c1, dst: "0.0.0.0/0", gw: "198.19.0.1" }]))).toBe(
      "unreachable",
    );
    expect(
      kindOf(() => kernel.applySync([{ op: "route.add", ns: c1, dst: "0.0.0.0/0", gw: "198.18.0.1", dev: "lo" }])),
    ).toBe("unreachable");
    kernel.applySync([{ op: "route.add", ns: c1, dst: "0.0.0.0/0", gw: "198.19.0.1", dev: "eth0", onlink: true }]);
  });

  test("a gateway is reachable through a scope link route added by hand (ptp)", () => {
    const { kernel, c1, routes } = addressed();
    kernel.applySync([
      { op: "route.add", ns: c1, dst: "198.19.0.1/32", dev: "eth0", scope: "link" },
      { op: "route.add", ns: c1, dst: "198.19.5.0/24", gw: "198.19.0.1" },
    ]);
    expect(routes(4)).toContain("198.19.5.0/24 via 198.19.0.1 dev eth0 proto boot scope global");
  });

  test("an IPv6 link-local gateway needs only the device", () => {
    const { kernel, c1, routes } = addressed();
    kernel.applySync([{ op: "route.add", ns: c1, dst: "2001:db8:9::/64", gw: "fe80::1", dev: "eth0" }]);
    expect(routes(6)).toContain("2001:db8:9::/64 via fe80::1 dev eth0 proto boot scope global metric 1024");
  });

  test("routes to a missing or down device, and with host bits, are refused", () => {
    const { kernel, c1 } = addressed();
    kernel.applySync([{ op: "veth.add", ns: c1, name: "x", peer: { name: "y", ns: c1 } }]);
    expect(kindOf(() => kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.0/24", dev: "eth9" }]))).toBe(
      "not-found",
    );
    expect(kindOf(() => kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.0/24", dev: "x" }]))).toBe(
      "unreachable",
    );
    expect(kindOf(() => kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.1/24", dev: "eth0" }]))).toBe(
      "invalid",
    );
    expect(kindOf(() => kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.0/24" }]))).toBe("not-found");
  });

  test("a duplicate route is exists and deleting a missing one not-found", () => {
    const { kernel, c1, routes } = addressed();
    kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.0/24", gw: "198.18.0.1" }]);
    expect(kindOf(() => kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.0/24", gw: "198.18.0.2" }]))).toBe(
      "exists",
    );
    kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.0/24", gw: "198.18.0.2", metric: 100 }]);
    kernel.applySync([{ op: "route.del", ns: c1, dst: "198.19.0.0/24", gw: "198.18.0.1" }]);
    expect(routes(4)).toContain("198.19.0.0/24 via 198.18.0.2 dev eth0 proto boot scope global metric 100");
    expect(kindOf(() => kernel.applySync([{ op: "route.del", ns: c1, dst: "198.19.0.0/24", gw: "198.18.0.1" }]))).toBe(
      "not-found",
    );
  });

  test("a source must be a local address and is reported", () => {
    const { kernel, c1, routes } = addressed();
    expect(
      kindOf(() =>
        kernel.applySync([{ op: "route.add", ns: c1, dst: "198.19.0.0/24", dev: "eth0", src: "198.18.0.9" }]),
      ),
    ).toBe("invalid");
    kernel.applySync([
      { op: "route.add", ns: c1, dst: "198.19.0.0/24", dev: "eth0", src: "198.18.0.5", mtu: 1400, table: 100 },
    ]);
    expect(routes(4)).toContain("198.19.0.0/24 dev eth0 table 100 proto boot scope link src 198.18.0.5 mtu 1400");
  });
});

describe("sysctls", () => {
  test("a fresh namespace does not forward", async () => {
    const { kernel, c1 } = wired();
    expect(await kernel.sysctl(c1, "net.ipv4.ip_forward")).toBe("0");
    expect(await kernel.sysctl(c1, "net.ipv6.conf.all.forwarding")).toBe("0");
    expect(await kernel.sysctl(c1, "net.ipv4.conf.nope.forwarding")).toBeUndefined();
    expect(await kernel.sysctl(c1, "net.core.nope")).toBeUndefined();
  });

  test("per-interface keys appear with the link and die with it", async () => {
    const { kernel, c1 } = wired();
    expect(await kernel.sysctl(c1, "net.ipv6.conf.eth0.accept_ra")).toBe("1");
    expect(await kernel.sysctl(c1, "net.ipv4.conf.eth0.arp_notify")).toBe("0");
    kernel.applySync([{ op: "link.del", ns: c1, name: "eth0" }]);
    expect(await kernel.sysctl(c1, "net.ipv6.conf.eth0.accept_ra")).toBeUndefined();
    expect(Object.keys(kernel.snapshot(c1).sysctls).filter((k) => k.includes("eth0"))).toEqual([]);
  });

  test("ip_forward is conf.all.forwarding and reaches every interface", async () => {
    const { kernel, c1 } = wired();
    kernel.applySync([{ op: "sysctl.set", ns: c1, key: "net.ipv4.ip_forward", value: "1" }]);
    expect(await kernel.sysctl(c1, "net.ipv4.conf.all.forwarding")).toBe("1");
    expect(await kernel.sysctl(c1, "net.ipv4.conf.eth0.forwarding")).toBe("1");
    expect(await kernel.sysctl(HOST, "net.ipv4.ip_forward")).toBe("0");
  });

  test("unknown keys are not-found and non-integer values invalid", () => {
    const { kernel, c1 } = wired();
    expect(kindOf(() => kernel.applySync([{ op: "sysctl.set", ns: c1, key: "net.ipv4.nope", value: "1" }]))).toBe(
      "not-found",
    );
    expect(
      kindOf(() => kernel.applySync([{ op: "sysctl.set", ns: c1, key: "net.ipv6.conf.eth9.accept_ra", value: "0" }])),
    ).toBe("not-found");
    expect(
      kindOf(() => kernel.applySync([{ op: "sysctl.set", ns: c1, key: "net.ipv4.ip_forward", value: "yes" }])),
    ).toBe("invalid");
  });

  test("disable_ipv6 flushes IPv6 from the link and refuses new IPv6 addresses until re-enabled", () => {
    const { kernel, c1, addrs, routes } = wired();
    kernel.applySync([
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "2001:db8::5/64" },
      { op: "sysctl.set", ns: c1, key: "net.ipv6.conf.eth0.disable_ipv6", value: "1" },
    ]);
    expect(addrs()).toEqual([]);
    expect(routes()).toEqual([]);
    expect(kindOf(() => kernel.applySync([{ op: "addr.add", ns: c1, dev: "eth0", cidr: "2001:db8::5/64" }]))).toBe(
      "invalid",
    );
    kernel.applySync([{ op: "sysctl.set", ns: c1, key: "net.ipv6.conf.eth0.disable_ipv6", value: "0" }]);
    expect(addrs()).toHaveLength(1);
    expect(routes(6)).toEqual(["fe80::/64 dev eth0 proto kernel scope global metric 256"]);
  });
});
