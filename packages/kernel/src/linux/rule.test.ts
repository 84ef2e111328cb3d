/**
 * Rule ops, table reads and VRF creation on the real kernel through both drivers, inside
 * throwaway namespaces only (issue 12 item 3). This kernel has no vrf link kind: `vrf.add`
 * must fail as `ip link add ... type vrf` does ("Unknown device type", `invalid`) and
 * leave no link behind. Root only; CI runs as root.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { KernelError, type Kernel } from "../kernel.ts";
import { createNetlinkKernel } from "../netlink/driver.ts";
import { createLinuxKernel } from "./driver.ts";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "../testing/throwaway.ts";

const skip = skipUnless("rule and vrf ops on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));

const DRIVERS = [
  ["createLinuxKernel", createLinuxKernel],
  ["createNetlinkKernel", createNetlinkKernel],
] as const;

describe.skipIf(skip).each(DRIVERS)("%s: rules, tables and VRFs on the real kernel", (_, createKernel) => {
  let ctr: ThrowawayNetns | undefined;
  let k: Kernel;
  let C = "";

  beforeAll(async () => {
    ctr = createThrowawayNetns("rule");
    C = ctr.path;
    k = createKernel({ host: ctr.path });
    await k.apply([
      { op: "veth.add", ns: C, name: "eth0", peer: { name: "eth1", ns: C } },
      { op: "link.set", ns: C, name: "eth0", up: true },
      { op: "link.set", ns: C, name: "eth1", up: true },
      { op: "addr.add", ns: C, dev: "eth0", cidr: "198.18.0.5/24" },
      { op: "addr.add", ns: C, dev: "eth0", cidr: "2001:db8::5/64", nodad: true },
    ]);
  });
  afterAll(() => {
    if (ctr) deleteThrowawayNetns(ctr);
  });

  test("rules of both families are added, read back with their kernel-given priorities, and deleted", async () => {
    await k.apply([
      { op: "rule.add", ns: C, from: "198.18.0.5/32", table: 100 },
      { op: "rule.add", ns: C, from: "2001:db8::5/128", table: 300 },
      { op: "rule.add", ns: C, priority: 1000, to: "198.18.1.0/24", iif: "eth0", oif: "eth1", table: 70000 },
    ]);
    const rules = await k.rules(C);
    expect(rules).toContainEqual({ family: 4, priority: 32765, from: "198.18.0.5/32", table: 100 });
    expect(rules).toContainEqual({ family: 6, priority: 32765, from: "2001:db8::5/128", table: 300 });
    expect(rules).toContainEqual({
      family: 4,
      priority: 1000,
      to: "198.18.1.0/24",
      iif: "eth0",
      oif: "eth1",
      table: 70000,
    });
    await k.apply([
      { op: "rule.del", ns: C, from: "198.18.0.5/32", table: 100 },
      { op: "rule.del", ns: C, from: "2001:db8::5/128" },
      { op: "rule.del", ns: C, priority: 1000 },
    ]);
    expect((await k.rules(C)).map((r) => r.table)).toEqual([255, 254, 253, 255, 254]);
  });

  test("deleting a rule that is not there fails as not-found", async () => {
    const e = await k.apply([{ op: "rule.del", ns: C, from: "198.18.0.9/32" }]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KernelError);
    expect((e as KernelError).kind).toBe("not-found");
  });

  test("a route replaced into a table with proto kernel reads back from that table only", async () => {
    await k.apply([
      {
        op: "route.add",
        ns: C,
        dst: "198.18.0.0/24",
        dev: "eth0",
        src: "198.18.0.5",
        scope: "link",
        table: 100,
        protocol: "kernel",
        replace: true,
      },
      {
        op: "route.add",
        ns: C,
        dst: "198.18.0.0/24",
        dev: "eth0",
        src: "198.18.0.5",
        scope: "link",
        table: 100,
        protocol: "kernel",
        replace: true,
      },
      { op: "route.add", ns: C, dst: "0.0.0.0/0", gw: "198.18.0.1", dev: "eth0", table: 100 },
    ]);
    expect(await k.routes(C, 4, 100)).toEqual([
      { dst: "0.0.0.0/0", family: 4, gw: "198.18.0.1", dev: "eth0", scope: "global", table: 100, protocol: "boot" },
      {
        dst: "198.18.0.0/24",
        family: 4,
        dev: "eth0",
        src: "198.18.0.5",
        scope: "link",
        table: 100,
        protocol: "kernel",
      },
    ]);
    expect((await k.routes(C, 4)).map((r) => r.table)).toEqual([undefined]);
  });

  test("vrf.add fails as `ip link add type vrf` does on a kernel without the kind, and leaves no link", async () => {
    const before = (await k.links(C)).map((l) => l.name);
    const e = await k.apply([{ op: "vrf.add", ns: C, name: "vrf0", table: 100 }]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KernelError);
    expect((e as KernelError).kind).toBe("invalid");
    expect((e as KernelError).message).toContain("link add vrf0 type vrf table 100");
    expect((await k.links(C)).map((l) => l.name)).toEqual(before);
  });
});
