import { describe, expect, test } from "bun:test";
import type { RouteInfo } from "@tscni/kernel";
import { parseIP } from "@tscni/spec/ipnet";
import { routableHostIf } from "./host-if.ts";

const route = (dst: string, dev: string | undefined, metric?: number): RouteInfo => ({
  dst,
  dev,
  family: dst.includes(":") ? 6 : 4,
  scope: "link",
  metric,
});

describe("routableHostIf", () => {
  test("picks the most specific route's device, the lowest metric among equals", () => {
    const routes = [
      route("0.0.0.0/0", "eth0"),
      route("198.18.0.0/16", "br1"),
      route("198.18.5.0/24", "cni0", 200),
      route("198.18.5.0/24", "cni1", 100),
      route("2001:db8::/64", "cni0"),
    ];
    expect(routableHostIf(routes, parseIP("198.18.5.9")!)).toBe("cni1");
    expect(routableHostIf(routes, parseIP("198.18.9.9")!)).toBe("br1");
    expect(routableHostIf(routes, parseIP("203.0.113.1")!)).toBe("eth0");
  });

  test("finds nothing without a covering route with a device", () => {
    expect(
      routableHostIf([route("198.18.5.0/24", undefined), route("2001:db8::/32", "x")], parseIP("198.18.5.9")!),
    ).toBeUndefined();
  });
});
