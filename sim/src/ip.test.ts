import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { contains, formatCidr, formatIp, linkLocalFromMac, network, parseCidr, parseIp } from "./ip.ts";

describe("ip", () => {
  test("parseIp reads IPv4 and IPv6 and rejects junk", () => {
    expect(parseIp("198.18.0.1")).toEqual({ family: 4, value: 0xc6120001n });
    expect(parseIp("::1")).toEqual({ family: 6, value: 1n });
    expect(parseIp("::ffff:198.18.0.1")?.value).toBe(0xffffc6120001n);
    for (const bad of ["", "1.2.3", "1.2.3.256", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "::g", "1.2.3.4/8"]) {
      expect(parseIp(bad)).toBeUndefined();
    }
  });

  test("formatIp writes IPv6 in RFC 5952 form", () => {
    expect(formatIp(parseIp("2001:0db8:0000:0000:0000:0000:0000:0001")!)).toBe("2001:db8::1");
    expect(formatIp(parseIp("2001:db8:0:1:0:0:0:1")!)).toBe("2001:db8:0:1::1");
    expect(formatIp(parseIp("::")!)).toBe("::");
    expect(formatIp(parseIp("fe80::")!)).toBe("fe80::");
  });

  test("parseCidr keeps host bits, network clears them, contains matches the prefix", () => {
    const c = parseCidr("198.18.0.5/24")!;
    expect(formatCidr(c)).toBe("198.18.0.5/24");
    expect(formatCidr(network(c))).toBe("198.18.0.0/24");
    expect(contains(c, parseIp("198.18.0.200")!)).toBe(true);
    expect(contains(c, parseIp("198.18.1.1")!)).toBe(false);
    expect(contains(parseCidr("0.0.0.0/0")!, parseIp("::1")!)).toBe(false);
    expect(parseCidr("198.18.0.5/33")).toBeUndefined();
  });

  test("linkLocalFromMac follows EUI-64 (as seen on Linux: ee:8d:f7:7d:5e:70)", () => {
    expect(formatIp(linkLocalFromMac("ee:8d:f7:7d:5e:70"))).toBe("fe80::ec8d:f7ff:fe7d:5e70");
  });

  test("formatIp and parseIp round-trip every address", () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (text) => {
        const ip = parseIp(text);
        expect(ip).toBeDefined();
        expect(parseIp(formatIp(ip!))).toEqual(ip!);
      }),
      { numRuns: 2000 },
    );
  });
});
