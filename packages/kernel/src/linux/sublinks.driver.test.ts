/**
 * Both Linux drivers (`ip -batch` and rtnetlink) with the sub-link ops on the real kernel,
 * inside throwaway namespaces only: `host` plays the plugin's namespace and holds the
 * master (a veth end), `ctr` a container. A macvlan is born in the container from the
 * host's namespace and reads back with its mode; the kinds this kernel lacks (ipvlan,
 * 8021q, dummy) are refused as `invalid` and leave nothing behind. Root only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { KernelError, type Kernel } from "../kernel.ts";
import { HOST, type KernelOp } from "../ops.ts";
import { createNetlinkKernel } from "../netlink/driver.ts";
import { createLinuxKernel } from "./driver.ts";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "../testing/throwaway.ts";

const skip = skipUnless("the sub-link ops on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));

const DRIVERS = [
  ["createLinuxKernel", createLinuxKernel],
  ["createNetlinkKernel", createNetlinkKernel],
] as const;

describe.skipIf(skip).each(DRIVERS)("%s with sub-links on the real kernel", (_, createKernel) => {
  let host: ThrowawayNetns | undefined;
  let ctr: ThrowawayNetns | undefined;
  let k: Kernel;
  let C = "";

  beforeAll(async () => {
    host = createThrowawayNetns("k");
    ctr = createThrowawayNetns("k");
    C = ctr.path;
    k = createKernel({ host: host.path });
    await k.apply([
      { op: "veth.add", ns: HOST, name: "nic0", peer: { name: "nic1", ns: HOST } },
      { op: "link.set", ns: HOST, name: "nic0", up: true },
      { op: "link.set", ns: HOST, name: "nic1", up: true },
    ]);
  });
  afterAll(() => {
    deleteThrowawayNetns(host);
    deleteThrowawayNetns(ctr);
  });

  test("a macvlan is born in the container on the host's master, with its mode, MTU and MAC, and renamed there", async () => {
    await k.apply([
      {
        op: "macvlan.add",
        ns: HOST,
        name: "veth0000abcd",
        parent: "nic0",
        mode: "vepa",
        mtu: 1400,
        mac: "02:00:00:00:aa:01",
        into: C,
      },
      { op: "link.set", ns: C, name: "veth0000abcd", newName: "eth0" },
    ]);
    expect(await k.link(HOST, "veth0000abcd")).toBeUndefined();
    expect(await k.link(C, "eth0")).toMatchObject({
      kind: "macvlan",
      macvlanMode: "vepa",
      mtu: 1400,
      mac: "02:00:00:00:aa:01",
    });
    await k.apply([{ op: "link.del", ns: C, name: "eth0" }]);
  });

  test("a macvlan MTU above the master's is refused as invalid", async () => {
    const e = await failure(
      k.apply([{ op: "macvlan.add", ns: HOST, name: "m9", parent: "nic0", mode: "bridge", mtu: 9000, into: C }]),
    );
    expect(e.kind).toBe("invalid");
  });

  const missing: [string, KernelOp][] = [
    ["ipvlan", { op: "ipvlan.add", ns: HOST, name: "i0", parent: "nic0", mode: "l2", into: "" }],
    ["vlan", { op: "vlan.add", ns: HOST, name: "v0", parent: "nic0", id: 7, into: "" }],
    ["dummy", { op: "dummy.add", ns: "", name: "d0" }],
  ];
  for (const [kind, op] of missing) {
    test(`${kind}, which this kernel lacks, is refused as invalid ("Unknown device type") and leaves no link`, async () => {
      const e = await failure(
        k.apply([JSON.parse(JSON.stringify(op).replaceAll('""', JSON.stringify(C))) as KernelOp]),
      );
      expect({ kind: e.kind, unknown: /Unknown device type/.test(e.message) }).toEqual({
        kind: "invalid",
        unknown: true,
      });
      expect((await k.links(C)).map((l) => l.name)).toEqual(["lo"]);
      expect((await k.links(HOST)).map((l) => l.name).sort()).toEqual(["lo", "nic0", "nic1"]);
    });
  }
});

async function failure(p: Promise<unknown>): Promise<KernelError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KernelError) return e;
    throw e;
  }
  throw new Error("expected a KernelError");
}
