/**
 * planned-link.ts against the real kernel: the ops an interface plugin's ADD plans (a
 * veth into a throwaway host namespace, addresses of both families, a /32, ptp's route
 * swap, defaults) applied by each Linux driver; the interface's main-table routes the
 * kernel then lists, its own prefix and fe80::/64 routes included, are the derived ones,
 * in the same order. Root only; CI runs as root.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { KernelOp } from "@tscni/kernel";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { plannedLink } from "./planned-link.ts";

const skip = skipUnless("planned-link on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));

const DRIVERS = [
  ["netlink", createNetlinkKernel],
  ["iproute2", createLinuxKernel],
] as const;

describe.skipIf(skip).each(DRIVERS)("the planned interface's routes on the real kernel (%s driver)", (_, create) => {
  let host: ThrowawayNetns | undefined;
  let ctr: ThrowawayNetns | undefined;
  beforeEach(() => {
    host = createThrowawayNetns("plh");
    ctr = createThrowawayNetns("plc");
  });
  afterEach(() => {
    deleteThrowawayNetns(ctr);
    deleteThrowawayNetns(host);
  });

  test("are what the kernel lists after the planned ops", async () => {
    const ns = ctr!.path;
    const ops: KernelOp[] = [
      { op: "veth.add", ns, name: "eth0", peer: { name: "v0", ns: host!.path } },
      { op: "link.set", ns: host!.path, name: "v0", up: true },
      { op: "link.set", ns, name: "eth0", up: true },
      { op: "addr.add", ns, dev: "eth0", cidr: "198.18.0.5/24" },
      { op: "addr.add", ns, dev: "eth0", cidr: "2001:db8::5/64", nodad: true },
      { op: "addr.add", ns, dev: "eth0", cidr: "198.18.3.5/32" },
      { op: "route.del", ns, dst: "198.18.0.0/24", dev: "eth0" },
      { op: "route.add", ns, dst: "198.18.0.1/32", dev: "eth0", scope: "link", src: "198.18.0.5" },
      { op: "route.add", ns, dst: "198.18.0.0/24", gw: "198.18.0.1", dev: "eth0", src: "198.18.0.5" },
      { op: "route.del", ns, dst: "2001:db8::/64", dev: "eth0" },
      { op: "route.add", ns, dst: "2001:db8::1/128", dev: "eth0", scope: "link" },
      { op: "route.add", ns, dst: "2001:db8::/64", gw: "2001:db8::1", dev: "eth0" },
      { op: "route.add", ns, dst: "0.0.0.0/0", gw: "198.18.0.1", dev: "eth0" },
      { op: "route.add", ns, dst: "::/0", gw: "2001:db8::1", dev: "eth0" },
    ];
    const kernel = create();
    await kernel.apply(ops);
    const listed = (await kernel.routes(ns)).filter((r) => r.dev === "eth0");
    expect(
      plannedLink(ops, ns, "eth0", (await kernel.sysctl(ns, "net.ipv6.conf.default.disable_ipv6")) === "0").routes,
    ).toEqual(listed);
  });
});
