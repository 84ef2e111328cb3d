/**
 * Model-based runs of the bridge plugin (attachment-model.ts) for every spec version,
 * on IPv4, IPv6 and dual-stack networks with random gateway, MTU and hairpin settings.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { VERSIONS } from "@tscni/spec";
import { commands, runModel, type NetworkUnderTest } from "./attachment-model.ts";

const RANGES = {
  v4: [[{ subnet: "198.18.0.0/24" }]],
  v6: [[{ subnet: "2001:db8:b::/64" }]],
  dual: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "2001:db8:b::/64" }]],
};

function network(version: string): fc.Arbitrary<NetworkUnderTest> {
  return fc
    .record({
      family: fc.constantFrom("v4", "v6", "dual") as fc.Arbitrary<keyof typeof RANGES>,
      isDefaultGateway: fc.boolean(),
      mtu: fc.constantFrom(0, 1400, 9000),
      hairpinMode: fc.boolean(),
    })
    .map(({ family, isDefaultGateway, mtu, hairpinMode }) => ({
      plugin: "bridge" as const,
      version,
      shared: ["cni0"],
      config: {
        cniVersion: version,
        name: "brnet",
        type: "bridge",
        bridge: "cni0",
        isGateway: true,
        isDefaultGateway,
        mtu,
        hairpinMode,
        ipam: { type: "host-local", ranges: RANGES[family] },
      },
    }));
}

describe("bridge model", () => {
  test.each([...VERSIONS])("random ADD, CHECK, DEL and failing ADDs keep the invariants at %s", async (version) => {
    await fc.assert(
      fc.asyncProperty(network(version), fc.integer({ min: 1, max: 1 << 30 }), commands(), (net, seed, cmds) =>
        runModel(net, seed, cmds),
      ),
      { numRuns: 40 },
    );
  });
});
