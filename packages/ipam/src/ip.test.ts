import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compareIP, formatIP, nextIP, parseIP, prevIP } from "./ip.ts";

describe("parseIP and formatIP", () => {
  test("print IPv6 as Go's net.IP.String does: longest zero run compressed, first on ties", () => {
    const cases: [string, string][] = [
      ["2001:0db8:0000:0000:0001:0000:0000:0001", "2001:db8::1:0:0:1"],
      ["2001:db8:0:1:0:0:0:0", "2001:db8:0:1::"],
      ["0:0:0:0:0:0:0:0", "::"],
      ["0:0:0:0:0:0:0:1", "::1"],
      ["2001:db8:1:2:3:4:0:5", "2001:db8:1:2:3:4:0:5"],
      ["2001:DB8::A", "2001:db8::a"],
      ["::ffff:198.18.0.1", "198.18.0.1"],
      ["::1.2.3.4", "::102:304"],
    ];
    for (const [input, want] of cases) expect(formatIP(parseIP(input)!)).toBe(want);
  });

  test("canonicalise an IPv4-mapped IPv6 address to IPv4, as canonicalizeIP does", () => {
    expect(parseIP("::ffff:10.0.0.1")).toEqual({ family: 4, value: 0x0a000001n });
  });

  test("reject what Go's net.ParseIP rejects", () => {
    for (const bad of ["", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "::1/64"]) {
      expect(parseIP(bad)).toBeUndefined();
    }
  });

  test("round-trip every address through its text form", () => {
    const v4 = fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }).map((value) => ({ family: 4 as const, value }));
    const v6 = fc
      .bigInt({ min: 0n, max: (1n << 128n) - 1n })
      .filter((v) => v >> 32n !== 0xffffn)
      .map((value) => ({ family: 6 as const, value }));
    fc.assert(fc.property(fc.oneof(v4, v6), (ip) => expect(parseIP(formatIP(ip))).toEqual(ip)));
  });
});

describe("IP arithmetic", () => {
  test("nextIP and prevIP step by one and stop at the family's ends", () => {
    expect(formatIP(nextIP(parseIP("198.18.0.255")!)!)).toBe("198.18.1.0");
    expect(formatIP(prevIP(parseIP("2001:db8::")!)!)).toBe("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff");
    expect(nextIP(parseIP("255.255.255.255")!)).toBeUndefined();
    expect(prevIP(parseIP("0.0.0.0")!)).toBeUndefined();
  });

  test("compareIP orders addresses numerically", () => {
    expect(compareIP(parseIP("198.18.0.9")!, parseIP("198.18.0.10")!)).toBeLessThan(0);
    expect(compareIP(parseIP("2001:db8::10")!, parseIP("2001:db8::9")!)).toBeGreaterThan(0);
  });
});
