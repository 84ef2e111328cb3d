/**
 * Model-based runs of the ptp plugin (attachment-model.ts) for every spec version, on
 * IPv4, IPv6 and dual-stack networks: containers reach each other through the host.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { VERSIONS } from "@tscni/spec";
import { commands, runModel, type NetworkUnderTest } from "./attachment-model.ts";

const RANGES = {
  v4: [[{ subnet: "198.18.8.0/24" }]],
  v6: [[{ subnet: "2001:db8:8::/64" }]],
  dual: [[{ subnet: "198.18.8.0/24" }], [{ subnet: "2001:db8:8::/64" }]],
};

function network(version: string): fc.Arbitrary<NetworkUnderTest> {
  return fc
    .record({
      family: fc.constantFrom("v4", "v6", "dual") as fc.Arbitrary<keyof typeof RANGES>,
      mtu: fc.constantFrom(0, 1280, 1500),
    })
    .map(({ family, mtu }) => ({
      plugin: "ptp" as const,
      version,
      shared: [],
      config: {
        cniVersion: version,
        name: "ptpnet",
        type: "ptp",
        mtu,
        ipam: { type: "host-local", ranges: RANGES[family] },
      },
    }));
}

describe("ptp model", () => {
  test.each([...VERSIONS])("random ADD, CHECK, DEL and failing ADDs keep the invariants at %s", async (version) => {
    await fc.assert(
      fc.asyncProperty(network(version), fc.integer({ min: 1, max: 1 << 30 }), commands(), (net, seed, cmds) =>
        runModel(net, seed, cmds),
      ),
      { numRuns: 40 },
    );
  });
});
