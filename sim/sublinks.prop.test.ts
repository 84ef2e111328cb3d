/**
 * Properties of the interface plugins on the fake kernel, for every spec version: an ADD
 * then a DEL leaves every namespace and the IPAM store as they were (DEL-1, ADD-6); a
 * CHECK right after ADD passes, and fails once the attachment is tampered with (CHK-3);
 * an ADD that fails at any kernel operation leaves nothing behind (ADD-6); DEL twice
 * succeeds (DEL-3).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { VERSIONS, versionAtLeast } from "@tscni/spec";
import { CONTAINERS, SublinkHarness, type SublinkPlugin } from "./sublink-harness.ts";
import { asCurrent } from "./plugin-harness.ts";

const RANGES = {
  v4: [[{ subnet: "198.18.8.0/24" }]],
  v6: [[{ subnet: "2001:db8:8::/64" }]],
  dual: [[{ subnet: "198.18.8.0/24" }], [{ subnet: "2001:db8:8::/64" }]],
};
const LEGACY = new Set(["0.1.0", "0.2.0"]);

/** A config of `plugin` at `version`, with the knobs the reference offers. */
function config(plugin: SublinkPlugin, version: string): fc.Arbitrary<Record<string, unknown>> {
  const family = fc.constantFrom(...(LEGACY.has(version) ? (["v4", "v6"] as const) : (["v4", "v6", "dual"] as const)));
  const ipam = family.map((f) => ({
    type: "host-local",
    ranges: RANGES[f],
    routes: [{ dst: f === "v6" ? "2001:db8:9::/64" : "198.18.9.0/24" }],
  }));
  const base = { cniVersion: version, name: "subnet", type: plugin };
  switch (plugin) {
    case "macvlan":
      return fc
        .record({
          mode: fc.constantFrom("", "bridge", "private", "vepa", "passthru"),
          master: fc.constantFrom("", "vp0"),
          mtu: fc.constantFrom(0, 1280, 1500),
          mac: fc.constantFrom(undefined, "02:00:00:0a:0b:0c"),
          // L2 (no IPAM) only from 0.3.0: a result without IPs has no 0.1.0/0.2.0 form, for the reference too.
          ipam: LEGACY.has(version) ? ipam : fc.option(ipam, { nil: undefined }),
        })
        .map((r) => ({ ...base, ...r }));
    case "ipvlan":
      return fc
        .record({
          mode: fc.constantFrom("", "l2", "l3", "l3s"),
          master: fc.constantFrom("", "vp0"),
          mtu: fc.constantFrom(0, 1400),
          ipam,
        })
        .map((r) => ({ ...base, ...r }));
    case "vlan":
      return fc
        .record({ vlanId: fc.integer({ min: 0, max: 4094 }), mtu: fc.constantFrom(0, 1400), ipam })
        .map((r) => ({ ...base, master: "vp0", ...r }));
    case "dummy":
      return ipam.map((i) => ({ ...base, ipam: i }));
  }
}

type Tamper = "delete the link" | "take the link down" | "flush its addresses" | "record another MAC";
const TAMPERS: readonly Tamper[] = [
  "delete the link",
  "take the link down",
  "flush its addresses",
  "record another MAC",
];

async function tamper(h: SublinkHarness, how: Tamper, prev: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ns = CONTAINERS[0];
  if (how === "delete the link") h.kernel.applySync([{ op: "link.del", ns, name: "eth0" }]);
  if (how === "take the link down") h.kernel.applySync([{ op: "link.set", ns, name: "eth0", up: false }]);
  if (how === "flush its addresses")
    for (const a of await h.kernel.addresses(ns, "eth0"))
      if (a.scope === "global") h.kernel.applySync([{ op: "addr.del", ns, dev: "eth0", cidr: a.cidr }]);
  if (how === "record another MAC") {
    const ifs = (prev.interfaces as { mac?: string }[]).map((i) => ({ ...i, mac: "02:de:ad:be:ef:01" }));
    return { ...prev, interfaces: ifs };
  }
  return prev;
}

for (const plugin of ["macvlan", "ipvlan", "vlan", "dummy"] as const) {
  describe(`${plugin} on the fake kernel`, () => {
    test.each([...VERSIONS])(
      `ADD then DEL leaves every namespace and the IPAM store as they were, at %s`,
      async (version) => {
        await fc.assert(
          fc.asyncProperty(config(plugin, version), fc.integer({ min: 1, max: 1 << 30 }), async (conf, seed) => {
            const h = new SublinkHarness(seed);
            const before = h.snapshots();
            const add = await h.run(plugin, "ADD", { config: conf });
            expect(add.code).toBe(0);
            if (!LEGACY.has(version))
              expect(asCurrent(add.json).interfaces?.[0]).toMatchObject({ name: "eth0", sandbox: CONTAINERS[0] });
            const link = await h.kernel.link(CONTAINERS[0], "eth0");
            expect(link?.kind).toBe(plugin);
            expect(link?.up).toBe(true);
            if (versionAtLeast(version, "0.4.0")) {
              const ok = await h.run(plugin, "CHECK", { config: { ...conf, prevResult: add.json } });
              expect(ok.stdout).toBe("");
              expect(ok.code).toBe(0);
            }
            const del = await h.run(plugin, "DEL", { config: conf });
            expect(del.code).toBe(0);
            expect(h.snapshots()).toEqual(before);
            expect(h.reserved("subnet")).toEqual([]);
            expect((await h.run(plugin, "DEL", { config: conf })).code).toBe(0);
          }),
          { numRuns: 12 },
        );
      },
    );

    test(`CHECK fails after the attachment is tampered with`, async () => {
      await fc.assert(
        fc.asyncProperty(config(plugin, "1.0.0"), fc.constantFrom(...TAMPERS), async (conf, how) => {
          // An L2 macvlan has no addresses to flush.
          fc.pre(!(how === "flush its addresses" && conf.ipam === undefined));
          const h = new SublinkHarness();
          const add = await h.run(plugin, "ADD", { config: conf });
          expect(add.code).toBe(0);
          const prev = await tamper(h, how, add.json!);
          const check = await h.run(plugin, "CHECK", { config: { ...conf, prevResult: prev } });
          // Only dummy looks at the link's state; the others find its missing routes instead.
          if (how === "take the link down" && plugin !== "dummy" && conf.ipam === undefined) return;
          expect(check.code).toBe(1);
          expect(check.json?.msg).toEqual(expect.any(String));
        }),
        { numRuns: 16 },
      );
    });

    test(`an ADD that fails at any kernel operation leaves nothing behind`, async () => {
      await fc.assert(
        fc.asyncProperty(config(plugin, "1.0.0"), fc.integer({ min: 0, max: 30 }), async (conf, failAt) => {
          const h = new SublinkHarness();
          const before = h.snapshots();
          const start = h.kernel.opCount;
          h.kernel.failAt((_op, index) => index === start + failAt);
          const add = await h.run(plugin, "ADD", { config: conf });
          h.kernel.clearFailures();
          if (add.code === 0) return; // the plan had fewer operations than that
          expect(h.snapshots()).toEqual(before);
          expect(h.reserved("subnet")).toEqual([]);
        }),
        { numRuns: 24 },
      );
    });
  });
}
