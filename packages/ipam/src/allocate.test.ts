import { describe, expect, test } from "bun:test";
import { allocate, release } from "./allocate.ts";
import { allocationAddress } from "./allocator.ts";
import { type IPAMConfig, loadIPAMConfig } from "./config.ts";
import { formatIP, parseIP } from "@tscni/spec/ipnet";
import { MemoryStore } from "./store-memory.ts";

function conf(ipam: Record<string, unknown>, extra: Record<string, unknown> = {}, envIP?: string): IPAMConfig {
  const out = loadIPAMConfig(
    { name: "net1", cniVersion: "1.1.0", ipam, ...extra },
    envIP === undefined ? undefined : parseIP(envIP),
  );
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

async function addresses(c: IPAMConfig, store: MemoryStore, id: string, ifname = "eth0"): Promise<string[] | string> {
  const out = await allocate(c, store, id, ifname);
  return out.ok ? out.value.map(allocationAddress) : out.error;
}

describe("allocate", () => {
  test("hands out .2 first (the gateway .1 is skipped) and continues round-robin after the last reserved IP", async () => {
    const c = conf({ subnet: "198.18.0.0/29" });
    const store = new MemoryStore();
    expect(await addresses(c, store, "a")).toEqual(["198.18.0.2/29"]);
    expect(await addresses(c, store, "b")).toEqual(["198.18.0.3/29"]);
    await release(store, "a", "eth0");
    // The freed .2 is not reused until the walk wraps (DEL does not reset last_reserved_ip).
    expect(await addresses(c, store, "c")).toEqual(["198.18.0.4/29"]);
    expect(await addresses(c, store, "d")).toEqual(["198.18.0.5/29"]);
    expect(await addresses(c, store, "e")).toEqual(["198.18.0.6/29"]);
    expect(await addresses(c, store, "f")).toEqual(["198.18.0.2/29"]);
    expect(await addresses(c, store, "g")).toBe(
      "failed to allocate for range 0: no IP addresses available in range set: 198.18.0.1-198.18.0.6",
    );
  });

  test("starts at rangeStart when the last reserved IP left the set", async () => {
    const c = conf({ subnet: "198.18.0.0/24", rangeStart: "198.18.0.100" });
    const store = new MemoryStore();
    store.lastReserved.set("0", parseIP("198.19.0.7")!);
    expect(await addresses(c, store, "a")).toEqual(["198.18.0.100/24"]);
  });

  test("wraps from one range of a set to the next", async () => {
    const c = conf({ ranges: [[{ subnet: "198.18.0.0/30" }, { subnet: "198.18.1.0/30" }]] });
    const store = new MemoryStore();
    const got = [];
    for (const id of ["a", "b", "c"]) got.push(await addresses(c, store, id));
    expect(got).toEqual([
      ["198.18.0.2/30"],
      ["198.18.1.2/30"],
      "failed to allocate for range 0: no IP addresses available in range set: 198.18.0.1-198.18.0.2,198.18.1.1-198.18.1.2",
    ]);
  });

  test("allocates one address per range set for dual stack, each with its gateway", async () => {
    const c = conf({ ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "2001:db8::/64", gateway: "2001:db8::fe" }]] });
    const out = await allocate(c, new MemoryStore(), "a", "eth0");
    expect(out.ok && out.value.map((a) => [allocationAddress(a), formatIP(a.gateway)])).toEqual([
      ["198.18.0.2/24", "198.18.0.1"],
      ["2001:db8::1/64", "2001:db8::fe"],
    ]);
  });

  test("refuses a second address for the same attachment in one set", async () => {
    const c = conf({ subnet: "198.18.0.0/24" });
    const store = new MemoryStore();
    await addresses(c, store, "a");
    expect(await addresses(c, store, "a")).toBe(
      "failed to allocate for range 0: 198.18.0.2 has been allocated to a, duplicate allocation is not allowed",
    );
    expect(await addresses(c, store, "a", "eth1")).toEqual(["198.18.0.3/24"]);
  });

  test("honours requested IPs from all three sources and fails on the gateway or a taken address", async () => {
    const base = { ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "2001:db8::/64" }]] };
    const store = new MemoryStore();
    const c = conf(base, { args: { cni: { ips: ["2001:db8::42"] } } }, "198.18.0.42");
    expect(await addresses(c, store, "a")).toEqual(["198.18.0.42/24", "2001:db8::42/64"]);
    expect(await addresses(conf(base, { runtimeConfig: { ips: ["198.18.0.42/24"] } }), store, "b")).toBe(
      "failed to allocate for range 0: requested IP address 198.18.0.42 is not available in range set 198.18.0.1-198.18.0.254",
    );
    expect(await addresses(conf(base, {}, "198.18.0.1"), store, "c")).toBe(
      "failed to allocate for range 0: requested ip 198.18.0.1 is subnet's gateway",
    );
  });

  test("releases what it reserved when a requested IP fits no range set", async () => {
    const c = conf({ subnet: "198.18.0.0/24" }, { runtimeConfig: { ips: ["198.18.0.9", "198.19.0.9"] } });
    const store = new MemoryStore();
    expect(await addresses(c, store, "a")).toBe("failed to allocate all requested IPs: 198.19.0.9");
    expect(store.reservations.size).toBe(0);
  });

  test("releases only what this call reserved when a later set fails", async () => {
    const c = conf({ ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "2001:db8::/64" }]] });
    const store = new MemoryStore();
    await store.reserve("a", "eth0", parseIP("2001:db8::9")!, "1");
    expect(await addresses(c, store, "a")).toBe(
      "failed to allocate for range 1: 2001:db8::9 has been allocated to a, duplicate allocation is not allowed",
    );
    expect([...store.reservations.keys()]).toEqual(["2001:db8::9"]);
  });
});

describe("release", () => {
  test("removes the attachment's addresses, falls back to legacy ID-only ones, and is idempotent", async () => {
    const c = conf({ subnet: "198.18.0.0/24" });
    const store = new MemoryStore();
    await addresses(c, store, "a", "eth0");
    await addresses(c, store, "a", "eth1");
    store.seedLegacy(parseIP("198.18.0.77")!, "a");
    await release(store, "a", "eth0");
    expect([...store.reservations.keys()].sort()).toEqual(["198.18.0.3", "198.18.0.77"]);
    await release(store, "a", "eth9");
    expect([...store.reservations.keys()]).toEqual(["198.18.0.3"]);
    await release(store, "a", "eth9");
    expect(await store.findByID("a", "eth1")).toBe(true);
  });
});
