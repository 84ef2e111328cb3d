import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { HOST, KernelError, type KernelOp } from "../index.ts";
import { FakeKernel } from "./fake-kernel.ts";
import { diffSnapshots } from "./diff.ts";

const C1 = "/var/run/netns/c1";
const C2 = "/var/run/netns/c2";
const NAMES = ["lo", "eth0", "veth1", "veth2", "br0", "br0.5", "tmp"];

const CIDRS = [
  "198.18.0.1/24",
  "198.18.0.2/24",
  "198.18.0.3/24",
  "198.18.1.1/32",
  "2001:db8::1/64",
  "2001:db8::2/64",
  "2001:db8:1::1/128",
];
const DSTS = ["0.0.0.0/0", "198.19.0.0/24", "198.18.1.1/32", "::/0", "2001:db8:9::/64", "198.19.0.1/24"];
const GWS = ["198.18.0.1", "198.18.0.9", "198.18.1.1", "2001:db8::1", "fe80::1"];
const KEYS = [
  "net.ipv4.ip_forward",
  "net.ipv6.conf.all.forwarding",
  "net.ipv6.conf.eth0.disable_ipv6",
  "net.ipv4.conf.br0.arp_notify",
  "net.ipv6.conf.veth1.disable_ipv6",
  "net.nope",
  "net.ipv6.conf.all.disable_ipv6",
];

const GONE = "/var/run/netns/gone";
const ns = fc.oneof(
  { arbitrary: fc.constantFrom(HOST, C1, C2), weight: 12 },
  { arbitrary: fc.constant(GONE), weight: 1 },
);
const name = fc.constantFrom(...NAMES);
/** A namespace and a link name that often exists there. */
const at = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      [C1, "eth0"],
      [C2, "eth0"],
      [HOST, "veth1"],
      [HOST, "veth2"],
      [HOST, "br0"],
      [HOST, "lo"],
      [C1, "lo"],
      [HOST, "tmp"],
      [C2, "tmp"],
      [HOST, "br0.5"],
    ),
    weight: 8,
  },
  { arbitrary: fc.tuple(ns, name), weight: 2 },
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Random operations over a small universe, so they often collide and sometimes fail. */
const opArb: fc.Arbitrary<KernelOp> = fc.oneof(
  fc
    .tuple(at, name, ns)
    .map(
      ([[n, nm], peer, peerNs]): KernelOp => ({ op: "veth.add", ns: n, name: nm, peer: { name: peer, ns: peerNs } }),
    ),
  at.map(([n, nm]): KernelOp => ({ op: "bridge.add", ns: n, name: nm })),
  fc
    .tuple(at, fc.integer({ min: 1, max: 3 }))
    .map(([[n, nm], id]): KernelOp => ({ op: "vlan.add", ns: n, name: `${nm}.${id}`.slice(0, 15), parent: nm, id })),
  fc
    .tuple(
      at,
      maybe(fc.boolean()),
      maybe(fc.constantFrom<string | null>("br0", null)),
      maybe(name),
      maybe(fc.constantFrom(1400, 9000, 10)),
    )
    .map(
      ([[n, nm], up, master, newName, mtu]): KernelOp => ({
        op: "link.set",
        ns: n,
        name: nm,
        ...(up !== undefined && { up }),
        ...(master !== undefined && { master }),
        ...(newName !== undefined && { newName }),
        ...(mtu !== undefined && { mtu }),
      }),
    ),
  fc
    .tuple(at, fc.boolean())
    .map(([[n, nm], isolated]): KernelOp => ({ op: "bridge-port.set", ns: n, name: nm, isolated })),
  fc
    .tuple(at, fc.constantFrom("bridge-vlan.add" as const, "bridge-vlan.del" as const), fc.integer({ min: 1, max: 3 }))
    .map(([[n, nm], op, vid]): KernelOp => ({ op, ns: n, dev: nm, vid })),
  fc.tuple(at, ns).map(([[n, nm], to]): KernelOp => ({ op: "link.move", ns: n, name: nm, to })),
  at.map(([n, nm]): KernelOp => ({ op: "link.del", ns: n, name: nm })),
  fc
    .tuple(
      at,
      fc.constantFrom("addr.add" as const, "addr.del" as const),
      fc.constantFrom(...CIDRS),
      maybe(fc.boolean()),
    )
    .map(
      ([[n, nm], op, cidr, noprefixroute]): KernelOp => ({
        op,
        ns: n,
        dev: nm,
        cidr,
        ...(noprefixroute !== undefined && { noprefixroute }),
      }),
    ),
  fc
    .tuple(
      at,
      fc.constantFrom("route.add" as const, "route.del" as const),
      fc.constantFrom(...DSTS),
      maybe(fc.constantFrom(...GWS)),
      fc.boolean(),
      maybe(fc.boolean()),
      maybe(fc.constantFrom(0, 100)),
    )
    .map(
      ([[n, nm], op, dst, gw, withDev, onlink, metric]): KernelOp => ({
        op,
        ns: n,
        dst,
        ...(gw !== undefined && { gw }),
        ...(withDev && { dev: nm }),
        ...(onlink !== undefined && { onlink }),
        ...(metric !== undefined && { metric }),
      }),
    ),
  fc
    .tuple(ns, fc.constantFrom(...KEYS), fc.constantFrom("0", "1", "x"))
    .map(([n, key, value]): KernelOp => ({ op: "sysctl.set", ns: n, key, value })),
);

/** Two containers wired to a host bridge, so random ops find links to act on. */
function machine(): FakeKernel {
  const k = new FakeKernel({ seed: 42 });
  k.addNetns(C1);
  k.addNetns(C2);
  k.applySync([
    { op: "bridge.add", ns: HOST, name: "br0" },
    { op: "link.set", ns: HOST, name: "br0", up: true },
    { op: "addr.add", ns: HOST, dev: "br0", cidr: "198.18.0.1/24" },
    { op: "veth.add", ns: C1, name: "eth0", peer: { name: "veth1", ns: HOST } },
    { op: "veth.add", ns: C2, name: "eth0", peer: { name: "veth2", ns: HOST } },
    { op: "link.set", ns: HOST, name: "veth1", master: "br0", up: true },
    { op: "link.set", ns: C1, name: "eth0", up: true },
    { op: "addr.add", ns: C1, dev: "eth0", cidr: "198.18.0.2/24" },
  ]);
  return k;
}

function diffAll(a: FakeKernel, b: FakeKernel): string[] {
  expect(a.namespaces()).toEqual(b.namespaces());
  return a.namespaces().flatMap((n) => diffSnapshots(a.snapshot(n), b.snapshot(n)));
}

/** Applies a batch, returning the KernelError it stopped at (any other error fails the test). */
function applyCatching(k: FakeKernel, batch: KernelOp[]): KernelError | undefined {
  try {
    k.applySync(batch);
    return undefined;
  } catch (e) {
    if (e instanceof KernelError) return e;
    throw e;
  }
}

describe("FakeKernel properties", () => {
  test("random batches never break an invariant (the kernel asserts them after every batch)", () => {
    fc.assert(
      fc.property(fc.array(fc.array(opArb, { maxLength: 8 }), { maxLength: 6 }), fc.boolean(), (batches, dropC1) => {
        const k = machine();
        for (const batch of batches) applyCatching(k, batch);
        if (dropC1) k.deleteNetns(C1);
        for (const n of k.namespaces()) {
          for (const l of k.snapshot(n).links) {
            if (l.kind === "veth") expect(k.peerOf(n, l.name)?.ns).not.toBe(dropC1 ? C1 : "none");
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("a batch that fails leaves exactly the ops before the failing one applied", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 24 }), (batch) => {
        const whole = machine();
        const error = applyCatching(whole, batch);
        const stepwise = machine();
        let failedAt: number | undefined;
        for (const [i, op] of batch.entries()) {
          if (applyCatching(stepwise, [op])) {
            failedAt = i;
            break;
          }
        }
        expect(error?.opIndex).toBe(failedAt);
        expect(diffAll(whole, stepwise)).toEqual([]);
        expect(whole.log).toEqual(stepwise.log);
      }),
      { numRuns: 1000 },
    );
  });

  test("an injected failure at op k leaves the state of the first k ops", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 16 }), fc.nat(), (batch, pick) => {
        const k = pick % batch.length;
        const injected = machine();
        const base = injected.opCount;
        injected.failAt((_op, index) => index === base + k);
        const error = applyCatching(injected, batch);
        const prefix = machine();
        const prefixError = applyCatching(prefix, batch.slice(0, k));
        expect(error?.opIndex).toBe(prefixError ? prefixError.opIndex : k);
        expect(diffAll(injected, prefix)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
