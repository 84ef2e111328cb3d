/**
 * bridge then bandwidth on the fake kernel, for random limits and a few containers: ADD
 * then CHECK passes; a tampered tbf (one of its rate, limit or buffer off by one) makes
 * CHECK fail; DEL of bandwidth then bridge for every container brings the host and each
 * container namespace back to their baseline snapshots (issue 12 item 5).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { FakeFirewall } from "@tscni/firewall/fake";
import { HOST, TC_H_ROOT, type QdiscInfo } from "@tscni/kernel";
import { FakeKernel, tbfMaxSize } from "@tscni/kernel/fake";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { bridgeHandlers } from "../bridge/index.ts";
import type { Ipam, PluginPorts } from "../shared/index.ts";
import { bandwidthDefinition } from "./index.ts";
import { ifbName } from "./plan.ts";
import { tbfParams } from "./tbf.ts";

// Limits whose tbf Linux accepts: a burst that truncates to a bucket unable to send one
// byte is refused (sch_tbf.c), which index.test.ts covers as a failed, rolled-back ADD.
const limit = fc.oneof(
  fc.constant(undefined),
  fc
    .record({ rate: fc.integer({ min: 8, max: 80_000_000_000 }), burst: fc.integer({ min: 8, max: 80_000_000 }) })
    .filter((l) => tbfMaxSize(tbfParams(l.rate, l.burst)) > 0),
);
const setup = fc.record({
  containers: fc.integer({ min: 1, max: 3 }),
  ingress: limit,
  egress: limit,
  viaCapability: fc.boolean(),
  tamper: fc.constantFrom<"rate" | "limit" | "buffer">("rate", "limit", "buffer"),
});

const ipamFor = (id: number) => (): Ipam => ({
  add: async (): Promise<Result100> => ({
    cniVersion: "1.1.0",
    ips: [{ address: `198.18.70.${10 + id}/24`, gateway: "198.18.70.1" }],
  }),
  check: async () => {},
  del: async () => {},
  status: async () => {},
  gc: async () => {},
});

function counting(): (n: number) => Uint8Array {
  let next = 1;
  return (n) => Uint8Array.from({ length: n }, () => next++ & 0xff);
}

function args(id: number, command: string, config: CmdArgs["config"]): CmdArgs {
  return {
    command,
    containerID: `c${id}`,
    netns: `/var/run/netns/bwp${id}`,
    ifName: "eth0",
    args: "",
    path: "/opt/cni/bin",
    stdinData: new Uint8Array(),
    config,
  };
}

describe("bridge + bandwidth on the fake kernel", () => {
  test("ADD then CHECK passes, a tampered tbf fails CHECK, and DEL returns every namespace to its baseline", async () => {
    await fc.assert(
      fc.asyncProperty(setup, async (s) => {
        const k = new FakeKernel();
        const ids = Array.from({ length: s.containers }, (_, i) => i);
        for (const id of ids) k.addNetns(`/var/run/netns/bwp${id}`);
        const baseline = k.namespaces().map((ns) => k.snapshot(ns));
        const entry = {
          ...(s.ingress && { ingressRate: s.ingress.rate, ingressBurst: s.ingress.burst }),
          ...(s.egress && { egressRate: s.egress.rate, egressBurst: s.egress.burst }),
        };
        const bw = (prevResult: Result100 | undefined): CmdArgs["config"] => ({
          cniVersion: "1.0.0",
          name: "bwnet",
          type: "bandwidth",
          ...(s.viaCapability ? { runtimeConfig: { bandwidth: entry } } : entry),
          ...(prevResult && { prevResult: prevResult as unknown as Record<string, unknown> }),
        });
        const h = bandwidthDefinition(k).handlers;
        const results = new Map<number, Result100>();
        for (const id of ids) {
          const ports: PluginPorts = {
            kernel: k,
            firewall: new FakeFirewall(),
            ipam: ipamFor(id),
            random: counting(),
            sleep: async () => {},
            warn: () => {},
          };
          const bridge = bridgeHandlers(ports);
          const bridgeConf = {
            cniVersion: "1.0.0",
            name: "bwnet",
            type: "bridge",
            bridge: "cni-bw0",
            isGateway: true,
            ipam: { type: "memory" },
          };
          const prev = (await bridge.add!(args(id, "ADD", bridgeConf))) as Result100;
          results.set(id, (await h.add!(args(id, "ADD", bw(prev)))) as Result100);
        }
        for (const id of ids) await h.check!(args(id, "CHECK", bw(results.get(id))));
        // Tamper with the first shaped tbf of container 0, then CHECK must fail.
        const shaped =
          s.ingress !== undefined
            ? (k.peerOf(`/var/run/netns/bwp0`, "eth0")?.name ?? "")
            : s.egress !== undefined
              ? ifbName("bwnet", "c0")
              : undefined;
        if (shaped !== undefined) {
          const q = (await k.qdiscs(HOST, shaped)).find((x) => x.kind === "tbf") as QdiscInfo;
          const tbf = { ...q.tbf!, [s.tamper]: (q.tbf![s.tamper] + 1) % 2 ** 32 };
          k.applySync([
            { op: "qdisc.del", ns: HOST, dev: shaped, parent: TC_H_ROOT },
            { op: "qdisc.add", ns: HOST, dev: shaped, kind: "tbf", handle: q.handle, parent: TC_H_ROOT, tbf },
          ]);
          expect(
            await h.check!(args(0, "CHECK", bw(results.get(0)))).then(
              () => "passed",
              (e: Error) => e.message,
            ),
          ).toMatch(/doesn't match$/);
        }
        for (const id of ids) {
          await h.del!(args(id, "DEL", bw(results.get(id))));
          const ports: PluginPorts = {
            kernel: k,
            firewall: new FakeFirewall(),
            ipam: ipamFor(id),
            random: counting(),
            sleep: async () => {},
            warn: () => {},
          };
          await bridgeHandlers(ports).del!(
            args(id, "DEL", {
              cniVersion: "1.0.0",
              name: "bwnet",
              type: "bridge",
              bridge: "cni-bw0",
              isGateway: true,
              ipam: { type: "memory" },
              prevResult: results.get(id) as unknown as Record<string, unknown>,
            }),
          );
        }
        // The bridge itself stays, as the reference bridge's DEL leaves it: compare without it.
        const after = k.namespaces().map((ns) => k.snapshot(ns));
        expect(after.slice(1)).toEqual(baseline.slice(1));
        expect(after[0]?.tc).toEqual({});
        expect(after[0]?.links.filter((l) => l.name !== "cni-bw0")).toEqual(baseline[0]?.links ?? []);
      }),
      { numRuns: 40 },
    );
  });
});
