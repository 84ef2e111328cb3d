/**
 * Differential test of the ops host-device and tap added: taps made with `tap.add`, then
 * random `link.set` (up, MTU, alias, master), `link.move` and `link.del` on them, applied
 * to the FakeKernel and to each Linux driver in throwaway namespaces: each batch fails
 * alike (kind and op index) and leaves the same links (kind, up, operstate, MTU, master,
 * alias). Root only; CI runs it as root.
 */
import { describe, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import fc from "fast-check";
import { HOST, type Kernel, type KernelBatch, type KernelOp, type Netns } from "../index.ts";
import { createLinuxKernel } from "../linux/index.ts";
import { createNetlinkKernel } from "../netlink/index.ts";
import { expectSameStep } from "../testing/differential.ts";
import { createThrowawayNetns, deleteThrowawayNetns, placeBatch } from "../testing/throwaway.ts";
import { FakeKernel } from "./fake-kernel.ts";

const skip = skipUnless("the tap and alias differential test", firstMissing(missingRoot(), missingTools(["ip"])));

const C = "/ctr";
const ns = fc.constantFrom<Netns>(HOST, C);
const tap = fc.constantFrom("tap0", "tap1");
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

// The taps are made first, once: `ip tuntap add` over an existing tap attaches to it
// rather than failing, which the drivers do not model alike.
const SETUP: KernelBatch = [
  { op: "tap.add", ns: HOST, name: "tap0", multiQueue: true, owner: 1000 },
  { op: "tap.add", ns: C, name: "tap1", vnetHdr: true },
  { op: "bridge.add", ns: HOST, name: "br0" },
  { op: "bridge.add", ns: C, name: "br0" },
];

const op: fc.Arbitrary<KernelOp> = fc.oneof(
  fc.record({
    op: fc.constant("link.set" as const),
    ns,
    name: tap,
    up: opt(fc.boolean()),
    mtu: opt(fc.constantFrom(1280, 1500)),
    alias: opt(fc.constantFrom("nic0", "")),
  }),
  fc.record({ op: fc.constant("link.set" as const), ns, name: tap, master: fc.constantFrom("br0", null) }),
  fc.record({ op: fc.constant("link.move" as const), ns, name: tap, to: ns }).filter((o) => o.ns !== o.to),
  fc.record({ op: fc.constant("link.del" as const), ns, name: tap }),
);

async function observe(k: Kernel, n: Netns) {
  return (await k.links(n))
    .map((l) => ({
      name: l.name,
      kind: l.kind,
      up: l.up,
      operState: l.operState,
      mtu: l.mtu,
      master: l.master,
      alias: l.alias,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const DRIVERS = [
  ["iproute2", createLinuxKernel],
  ["netlink", createNetlinkKernel],
] as const;

describe.skipIf(skip).each(DRIVERS)("FakeKernel and the %s Linux driver on taps and aliases", (_, createKernel) => {
  test("random batches on two taps fail alike and leave the same links", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }),
        async (batches) => {
          const host = createThrowawayNetns("kt");
          let ctr: ReturnType<typeof createThrowawayNetns> | undefined;
          try {
            ctr = createThrowawayNetns("kt");
            const fake = new FakeKernel();
            fake.addNetns(ctr.path);
            fake.applySync([{ op: "link.set", ns: ctr.path, name: "lo", up: true }]);
            const linux = createKernel({ host: host.path });
            for (const b of [SETUP, ...batches])
              await expectSameStep(fake, linux, placeBatch(b, C, ctr.path), [HOST, ctr.path], observe);
          } finally {
            deleteThrowawayNetns(host);
            if (ctr !== undefined) deleteThrowawayNetns(ctr);
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});
