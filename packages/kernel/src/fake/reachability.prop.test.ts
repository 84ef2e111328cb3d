import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { HOST } from "../index.ts";
import { canReach, trace } from "./reachability.ts";
import { attachToBridge, enableForwarding, hostBridge, ptpLink, scenario } from "./scenario.ts";

describe("reachability properties", () => {
  test("containers on one bridge reach each other and the gateway, and a detached one is cut off", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.nat(), (n, pick) => {
        const { kernel, containers } = scenario({ containers: n });
        kernel.applySync(hostBridge("cni0", "198.18.0.1/24"));
        containers.forEach((ns, i) =>
          kernel.applySync(
            attachToBridge("cni0", { ns, hostVeth: `veth${i}`, cidr: `198.18.0.${i + 2}/24`, gateway: "198.18.0.1" }),
          ),
        );
        for (const [i, from] of containers.entries()) {
          expect(canReach(kernel, from, "198.18.0.1")).toBe(true);
          for (const j of containers.keys()) expect(canReach(kernel, from, `198.18.0.${j + 2}`)).toBe(true);
          expect(canReach(kernel, HOST, `198.18.0.${i + 2}`)).toBe(true);
        }
        const gone = pick % n;
        kernel.applySync([{ op: "link.del", ns: HOST, name: `veth${gone}` }]);
        for (const [i, from] of containers.entries()) {
          for (const j of containers.keys())
            expect(canReach(kernel, from, `198.18.0.${j + 2}`)).toBe(i !== gone && j !== gone);
        }
      }),
      { numRuns: 100 },
    );
  });

  test("ptp containers reach each other exactly when the host forwards, in both families", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.constantFrom(4, 6), (forward, family) => {
        const { kernel, containers } = scenario();
        const [c1, c2] = containers as [string, string];
        const [gw, a, b, len] =
          family === 4
            ? ["198.18.1.1", "198.18.1.2", "198.18.1.3", 24]
            : ["2001:db8:1::1", "2001:db8:1::2", "2001:db8:1::3", 64];
        kernel.applySync([
          ...ptpLink({ ns: c1, hostVeth: "veth1", cidr: `${a}/${len}`, gateway: gw }),
          ...ptpLink({ ns: c2, hostVeth: "veth2", cidr: `${b}/${len}`, gateway: gw }),
          ...(forward ? enableForwarding(HOST) : []),
        ]);
        expect(canReach(kernel, c1, b)).toBe(forward);
        expect(canReach(kernel, c2, a)).toBe(forward);
        expect(canReach(kernel, c1, gw)).toBe(true);
        if (forward) expect(trace(kernel, c1, b)).toEqual({ ok: true, hops: [c1, HOST, c2] });
      }),
      { numRuns: 50 },
    );
  });
});
