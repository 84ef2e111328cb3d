import { describe, expect, test } from "bun:test";
import type { LinkInfo } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { findVrf, freeVrfTable } from "./attach.ts";

const link = (name: string, kind: string, vrfTable?: number): LinkInfo => ({
  index: 1,
  name,
  kind,
  mac: "",
  mtu: 1500,
  up: true,
  operState: "UP",
  promisc: false,
  ...(vrfTable !== undefined && { vrfTable }),
});

describe("vrf's lookups", () => {
  test("a picked table is the first from 1 that no VRF of the namespace uses (findFreeRoutingTableID)", () => {
    expect(freeVrfTable([])).toBe(1);
    expect(freeVrfTable([link("a", "vrf", 1), link("b", "vrf", 2), link("c", "vrf", 4), link("eth0", "veth")])).toBe(3);
  });

  test("findVrf: none, a VRF, or the reference's refusal of another kind of link", async () => {
    const k = new FakeKernel();
    k.addNetns("/var/run/netns/v");
    k.applySync([{ op: "vrf.add", ns: "/var/run/netns/v", name: "vrf0", table: 9 }]);
    expect(await findVrf(k, "/var/run/netns/v", "vrf1")).toBeUndefined();
    expect((await findVrf(k, "/var/run/netns/v", "vrf0"))?.vrfTable).toBe(9);
    await expect(findVrf(k, "/var/run/netns/v", "lo")).rejects.toThrow("Netlink lo is not a VRF");
  });
});
