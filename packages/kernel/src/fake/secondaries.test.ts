import { describe, expect, test } from "bun:test";
import { HOST, type KernelOp } from "../index.ts";
import { FakeKernel } from "./fake-kernel.ts";

/** br0 up with 198.18.0.1/24 (primary), .2/24 and .4/24 (its secondaries), .3/25 and 198.18.1.1/24 (other primaries). */
async function bridge(promote?: "all" | "br0"): Promise<FakeKernel> {
  const k = new FakeKernel();
  const ops: KernelOp[] = [
    { op: "bridge.add", ns: HOST, name: "br0" },
    { op: "link.set", ns: HOST, name: "br0", up: true },
  ];
  if (promote !== undefined)
    ops.push({ op: "sysctl.set", ns: HOST, key: `net.ipv4.conf.${promote}.promote_secondaries`, value: "1" });
  for (const cidr of ["198.18.0.1/24", "198.18.0.2/24", "198.18.0.3/25", "198.18.1.1/24", "198.18.0.4/24"])
    ops.push({ op: "addr.add", ns: HOST, dev: "br0", cidr });
  await k.apply(ops);
  return k;
}

const seen = async (k: FakeKernel) => ({
  addrs: (await k.addresses(HOST))
    .filter((a) => a.dev === "br0" && !a.cidr.includes(":"))
    .map((a) => a.cidr)
    .sort(),
  routes: (await k.routes(HOST, 4)).map((r) => `${r.dst} src ${r.src}`).sort(),
});

describe("deleting a primary IPv4 address", () => {
  test("takes its secondaries with it when promote_secondaries is off, as Linux does", async () => {
    const k = await bridge();
    await k.apply([{ op: "addr.del", ns: HOST, dev: "br0", cidr: "198.18.0.1/24" }]);
    expect(await seen(k)).toEqual({
      addrs: ["198.18.0.3/25", "198.18.1.1/24"],
      routes: ["198.18.0.0/25 src 198.18.0.3", "198.18.1.0/24 src 198.18.1.1"],
    });
  });

  test("promotes the next secondary when promote_secondaries is on for all links or for the link", async () => {
    for (const where of ["all", "br0"] as const) {
      const k = await bridge(where);
      await k.apply([{ op: "addr.del", ns: HOST, dev: "br0", cidr: "198.18.0.1/24" }]);
      expect(await seen(k)).toEqual({
        addrs: ["198.18.0.2/24", "198.18.0.3/25", "198.18.0.4/24", "198.18.1.1/24"],
        routes: ["198.18.0.0/24 src 198.18.0.2", "198.18.0.0/25 src 198.18.0.3", "198.18.1.0/24 src 198.18.1.1"],
      });
    }
  });

  test("deleting a secondary leaves the primary and the other secondaries", async () => {
    const k = await bridge();
    await k.apply([{ op: "addr.del", ns: HOST, dev: "br0", cidr: "198.18.0.2/24" }]);
    expect((await seen(k)).addrs).toEqual(["198.18.0.1/24", "198.18.0.3/25", "198.18.0.4/24", "198.18.1.1/24"]);
  });
});
