import { describe, expect, test } from "bun:test";
import { parseAddr } from "@tscni/spec/ipnet";
import { routeSteps } from "./configure-iface.ts";

const target = { netns: "/var/run/netns/c", ifName: "eth1", ipv6: true };

describe("routeSteps", () => {
  test("adds each route as ECMP through the interface, so a second interface's default route goes beside the first (H-2)", () => {
    const steps = routeSteps(target, [{ dst: "0.0.0.0/0" }, { dst: "::/0", gw: "2001:db8:1::1" }], {
      4: parseAddr("198.18.1.1")!,
    });
    expect(steps.map((s) => s.op)).toEqual([
      { op: "route.add", ns: target.netns, dst: "0.0.0.0/0", dev: "eth1", gw: "198.18.1.1", prepend: true },
      { op: "route.add", ns: target.netns, dst: "::/0", dev: "eth1", gw: "2001:db8:1::1", prepend: true },
    ]);
    // Deleting the interface takes its nexthops only, so the routes need no undo of their own.
    expect(steps.map((s) => s.undo)).toEqual([undefined, undefined]);
  });

  test("masks the destination and carries priority, table, scope, MTU and advmss", () => {
    const [step] = routeSteps(
      target,
      [{ dst: "198.18.9.9/24", gw: "198.18.1.254", priority: 10, table: 100, scope: 253, mtu: 1400, advmss: 1360 }],
      {},
    );
    expect(step?.op).toEqual({
      op: "route.add",
      ns: target.netns,
      dst: "198.18.9.0/24",
      dev: "eth1",
      gw: "198.18.1.254",
      metric: 10,
      table: 100,
      scope: "link",
      mtu: 1400,
      advmss: 1360,
      prepend: true,
    });
  });
});
