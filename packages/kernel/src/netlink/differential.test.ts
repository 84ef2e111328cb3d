/**
 * The netlink driver against the iproute2 driver on the real kernel: the same random
 * batches, each applied to its own pair of fresh throwaway namespaces, must fail alike
 * (kind, op index and message) and leave the same state as both drivers read it back
 * (every field but MACs and operational state, which the kernel sets on its own time),
 * and each driver must read the other's state alike. Root only; CI runs it as root.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import fc from "fast-check";
import { KernelError, type Kernel, type LinkInfo } from "../kernel.ts";
import { HOST, type KernelBatch, type KernelOp, type Netns } from "../ops.ts";
import { createLinuxKernel } from "../linux/driver.ts";
import { namespacePool } from "../testing/namespace-pool.ts";
import { placeBatch } from "../testing/throwaway.ts";
import { createNetlinkKernel } from "./driver.ts";

const skip = skipUnless("the netlink-vs-iproute2 differential test", firstMissing(missingRoot(), missingTools(["ip"])));

const C = "/ctr"; // the container namespace, replaced per pair
const ns = fc.constantFrom<Netns>(HOST, C);
const name = fc.constantFrom("eth0", "veth0", "br0");
const anyLink = fc.constantFrom("lo", "eth0", "veth0", "br0", "nope");
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const mac = fc.constantFrom("02:00:00:00:00:01", "02:00:00:00:00:02");

const op: fc.Arbitrary<KernelOp> = fc.oneof(
  fc.record({
    op: fc.constant("veth.add" as const),
    ns,
    name,
    mtu: opt(fc.constantFrom(1400, 9000)),
    mac: opt(mac),
    peer: fc.record({ name, ns, mtu: opt(fc.constantFrom(1400)) }),
  }),
  fc.record({
    op: fc.constant("bridge.add" as const),
    ns,
    name: fc.constantFrom("br0", "eth0"),
    mtu: opt(fc.constantFrom(1450)),
  }),
  fc.record({
    op: fc.constant("link.set" as const),
    ns,
    name: anyLink,
    up: opt(fc.boolean()),
    mtu: opt(fc.constantFrom(1300, 70000)),
    mac: opt(mac),
    promisc: opt(fc.boolean()),
  }),
  fc.record({
    op: fc.constant("link.set" as const),
    ns,
    name: anyLink,
    master: fc.constantFrom("br0", "nope", null),
    up: opt(fc.boolean()),
  }),
  fc.record({ op: fc.constant("link.set" as const), ns, name: anyLink, newName: fc.constantFrom("eth0", "eth1") }),
  fc.record({
    op: fc.constant("bridge-port.set" as const),
    ns,
    name: anyLink,
    hairpin: opt(fc.boolean()),
    isolated: opt(fc.boolean()),
  }),
  fc.record({ op: fc.constant("link.del" as const), ns, name: anyLink }),
  fc.record({ op: fc.constant("link.move" as const), ns, name, to: ns }).filter((o) => o.ns !== o.to),
  fc
    .record({
      op: fc.constantFrom("addr.add" as const, "addr.del" as const),
      ns,
      dev: anyLink,
      cidr: fc.constantFrom(
        "198.18.0.1/24",
        "198.18.0.2/24",
        "198.18.0.3/32",
        "127.0.0.2/8",
        "2001:db8::1/64",
        "2001:db8::2/64",
      ),
      noprefixroute: opt(fc.boolean()),
      scope: opt(fc.constantFrom("global" as const, "link" as const, "host" as const)),
      broadcast: opt(fc.constantFrom("198.18.0.255", "2001:db8::ff")),
    })
    // No DAD, so no timing in the state; `nodad` on IPv4 makes `ip` print a warning that
    // the iproute2 driver would then quote as the reason of a later failure.
    .map((o) => (o.cidr.includes(":") ? { ...o, nodad: true } : o)),
  fc.record({
    op: fc.constantFrom("route.add" as const, "route.del" as const),
    ns,
    dst: fc.constantFrom("0.0.0.0/0", "198.19.0.0/16", "198.19.0.1/16", "198.18.9.9", "::/0", "2001:db8:1::/64"),
    gw: opt(fc.constantFrom("198.18.0.254", "198.18.0.253", "2001:db8::fe", "2001:db8::fd")),
    dev: opt(anyLink),
    src: opt(fc.constantFrom("198.18.0.1")),
    scope: opt(fc.constantFrom("global" as const, "link" as const)),
    metric: opt(fc.constantFrom(0, 50)),
    table: opt(fc.constantFrom(254, 1000)),
    mtu: opt(fc.constantFrom(1300)),
    advmss: opt(fc.constantFrom(1200)),
    onlink: opt(fc.boolean()),
    prepend: opt(fc.boolean()),
  }),
  fc.record({
    op: fc.constant("sysctl.set" as const),
    ns,
    key: fc.constantFrom("net.ipv4.ip_forward", "net.ipv6.conf.eth0.accept_ra", "net.ipv4.conf.nope.forwarding"),
    value: fc.constantFrom("0", "1", "x"),
  }),
);

function place(batch: KernelBatch, ctr: string): KernelOp[] {
  return placeBatch(batch, C, ctr);
}

async function outcome(k: Kernel, batch: KernelBatch, ctr: string, host: string): Promise<string> {
  try {
    await k.apply(batch);
    return "ok";
  } catch (e) {
    if (!(e instanceof KernelError)) throw e;
    return `${e.kind} at op ${e.opIndex}: ${e.message.replaceAll(ctr, C).replaceAll(host, "HOST")}`;
  }
}

/** Every field but the MAC and operational state, which the kernel sets on its own time. */
const stable = ({ mac: _m, operState: _o, ...rest }: LinkInfo) => rest;

/**
 * Both namespaces as `k` reads them. `byName` adds every link read by name, one request
 * (one `ip` run) each: done after a run's last batch only, to keep the test cheap.
 */
async function state(k: Kernel, ctr: string, byName: boolean) {
  const out: unknown[] = [];
  for (const n of [HOST, ctr]) {
    const links = await k.links(n);
    out.push(links.map(stable));
    // One link read by name is the link the dump lists (its master named alike), or none.
    for (const name of byName ? ["lo", "eth0", "eth1", "veth0", "br0", "nope", ""] : []) {
      const [one, listed] = [await k.link(n, name), links.find((l) => l.name === name)];
      expect(one === undefined ? null : stable(one)).toEqual(listed === undefined ? null : stable(listed));
      out.push(one === undefined ? null : stable(one));
    }
    out.push((await k.addresses(n)).filter((a) => !a.cidr.startsWith("fe80:")));
    out.push(await k.routes(n));
    out.push(await k.sysctl(n, "net.ipv4.ip_forward"));
  }
  return out;
}

// Namespaces named after this process: removed after the tests even when one times out,
// and a killed run's are swept by the next run (its process gone).
const pool = namespacePool("kn");

describe.skipIf(skip)("the netlink driver against the iproute2 driver", () => {
  beforeAll(() => pool.sweepDead());
  afterAll(() => pool.dropAll());

  test("random batches fail alike, with the same message, and leave the same state", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        async (batches) => {
          const made = [pool.make(), pool.make({ loopbackUp: false }), pool.make(), pool.make({ loopbackUp: false })];
          const [h1, c1, h2, c2] = made.map((m) => m.path) as [string, string, string, string];
          try {
            const ip = createLinuxKernel({ host: h1 });
            const nl = createNetlinkKernel({ host: h2 });
            for (const [i, b] of batches.entries()) {
              const last = i === batches.length - 1;
              const [want, got] = [await outcome(ip, place(b, c1), c1, h1), await outcome(nl, place(b, c2), c2, h2)];
              // An argument error makes `ip` exit without naming its line; the iproute2 driver
              // then guesses the first line quoting the argument, which may be an earlier op.
              // Netlink knows the op: there only the kind and the reason must agree.
              const guessed = /is wrong/.test(want);
              const loose = (o: string) => o.replace(/ at op \d+: ip [^:]*:/, ":");
              expect({ batch: b, outcome: guessed ? loose(got) : got }).toEqual({
                batch: b,
                outcome: guessed ? loose(want) : want,
              });
              const ipState = JSON.stringify(await state(ip, c1, last)).replaceAll(c1, C);
              expect(JSON.stringify(await state(nl, c2, last)).replaceAll(c2, C)).toBe(ipState);
              // Each reads the other's namespaces alike too.
              expect(JSON.stringify(await state(createNetlinkKernel({ host: h1 }), c1, last)).replaceAll(c1, C)).toBe(
                ipState,
              );
            }
          } finally {
            for (const m of made) pool.drop(m);
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 60_000);

  test("routes through many devices read alike, whether their devices are named one by one or from a dump", async () => {
    const [h, c] = [pool.make(), pool.make()];
    try {
      const ip = createLinuxKernel({ host: h.path });
      const batch: KernelOp[] = [];
      for (let i = 0; i < 12; i++) {
        batch.push(
          { op: "veth.add", ns: HOST, name: `v${i}`, peer: { name: `p${i}`, ns: c.path } },
          { op: "link.set", ns: HOST, name: `v${i}`, up: true },
        );
        batch.push({ op: "route.add", ns: HOST, dst: `198.18.0.${i + 1}/32`, dev: `v${i}`, scope: "link" });
      }
      await ip.apply(batch);
      const nl = createNetlinkKernel({ host: h.path });
      expect(await nl.routes(HOST)).toEqual(await ip.routes(HOST));
      expect((await nl.routes(HOST, 4)).length).toBe(12);
      await ip.apply([
        { op: "link.del", ns: HOST, name: "v0" },
        ...Array.from({ length: 10 }, (_, i): KernelOp => ({ op: "link.del", ns: HOST, name: `v${i + 2}` })),
      ]);
      expect(await nl.routes(HOST)).toEqual(await ip.routes(HOST));
    } finally {
      pool.drop(h);
      pool.drop(c);
    }
  });

  test("ECMP routes over two devices read alike: IPv4 separate routes, an IPv6 multipath route per nexthop (H-2)", async () => {
    const [h, c] = [pool.make(), pool.make()];
    try {
      const ip = createLinuxKernel({ host: h.path });
      const nl = createNetlinkKernel({ host: h.path });
      const batch: KernelOp[] = [];
      for (const [i, dev] of ["eth0", "eth1"].entries()) {
        batch.push(
          { op: "veth.add", ns: HOST, name: dev, peer: { name: `p${i}`, ns: c.path } },
          { op: "link.set", ns: HOST, name: dev, up: true },
        );
        batch.push(
          { op: "addr.add", ns: HOST, dev, cidr: `198.18.${i}.2/24` },
          { op: "addr.add", ns: HOST, dev, cidr: `2001:db8:${i}::2/64`, nodad: true },
        );
      }
      await ip.apply(batch);
      const ecmp = (k: typeof ip, i: number) =>
        k.apply([
          { op: "route.add", ns: HOST, dst: "0.0.0.0/0", gw: `198.18.${i}.1`, dev: `eth${i}`, prepend: true },
          { op: "route.add", ns: HOST, dst: "::/0", gw: `2001:db8:${i}::1`, dev: `eth${i}`, prepend: true },
        ]);
      await ecmp(nl, 0);
      await ecmp(ip, 1);
      const defaults = async (k: typeof ip) =>
        (await k.routes(HOST)).filter((r) => r.dst.endsWith("/0")).map((r) => `${r.dst} ${r.gw} ${r.dev}`);
      // IPv4: the newest route first (the one IPv4 uses); IPv6: the nexthops in the order added.
      const both = [
        "0.0.0.0/0 198.18.1.1 eth1",
        "0.0.0.0/0 198.18.0.1 eth0",
        "::/0 2001:db8:0::1 eth0",
        "::/0 2001:db8:1::1 eth1",
      ].map((r) => r.replace(":0::", "::"));
      expect(await defaults(nl)).toEqual(both);
      expect(await defaults(ip)).toEqual(both);
      // The same route again is a duplicate, through either driver.
      for (const k of [ip, nl]) await expect(ecmp(k, 1)).rejects.toMatchObject({ kind: "exists" });
      // Deleting one nexthop (dev and gateway) leaves the other.
      await nl.apply([
        { op: "route.del", ns: HOST, dst: "::/0", gw: "2001:db8::1", dev: "eth0" },
        { op: "route.del", ns: HOST, dst: "0.0.0.0/0", gw: "198.18.0.1", dev: "eth0" },
      ]);
      const left = ["0.0.0.0/0 198.18.1.1 eth1", "::/0 2001:db8:1::1 eth1"];
      expect(await defaults(ip)).toEqual(left);
      expect(await defaults(nl)).toEqual(left);
    } finally {
      pool.drop(h);
      pool.drop(c);
    }
  });
});
