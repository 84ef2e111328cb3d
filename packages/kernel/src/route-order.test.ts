import { describe, expect, test } from "bun:test";
import { parsePrefix } from "@tscni/spec/ipnet";
import { routeDumpOrder } from "./route-order.ts";

const sorted = (dsts: string[]): string[] => [...dsts].sort((a, b) => routeDumpOrder(parsePrefix(a)!, parsePrefix(b)!));

describe("the order Linux lists a table's routes in", () => {
  test("IPv4: by address, a shorter prefix first", () => {
    expect(sorted(["198.18.0.1/32", "198.18.0.0/24", "0.0.0.0/0", "198.18.9.0/24"])).toEqual([
      "0.0.0.0/0",
      "198.18.0.0/24",
      "198.18.0.1/32",
      "198.18.9.0/24",
    ]);
  });

  test("IPv6: a prefix after the prefixes it contains, by address otherwise (as `ip -6 route` lists them on Linux 6.18)", () => {
    expect(sorted(["::/0", "fe80::/64", "2001:db8::/64", "2001:db8::1/128", "2001:db8:1::/64"])).toEqual([
      "2001:db8::1/128",
      "2001:db8::/64",
      "2001:db8:1::/64",
      "fe80::/64",
      "::/0",
    ]);
  });
});
