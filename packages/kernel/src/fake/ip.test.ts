import { describe, expect, test } from "bun:test";
import { formatAddr, formatPrefix, network } from "@tscni/spec/ipnet";
import { linkLocalFromMac, parseCidr } from "./ip.ts";

describe("ip", () => {
  test("parseCidr keeps host bits and reads a bare address as a host prefix", () => {
    expect(parseCidr("198.18.0.5/24")).toEqual({ ip: { family: 4, value: 0xc6120005n }, prefix: 24 });
    expect(formatPrefix(network(parseCidr("198.18.0.5/24")!))).toBe("198.18.0.0/24");
    expect(parseCidr("198.18.0.5")).toEqual({ ip: { family: 4, value: 0xc6120005n }, prefix: 32 });
    expect(parseCidr("2001:db8::1")).toEqual({ ip: { family: 6, value: (0x20010db8n << 96n) | 1n }, prefix: 128 });
    for (const bad of ["", "198.18.0.5/33", "198.18.0.5/", "2001:db8::/129", "1.2.3.4::", "010.0.0.1/8"])
      expect(parseCidr(bad)).toBeUndefined();
  });

  test("parseCidr keeps an IPv4-mapped address IPv6, as Linux does", () => {
    const mapped = parseCidr("::ffff:198.18.0.1/120")!;
    expect(mapped.ip).toEqual({ family: 6, value: 0xffffc6120001n });
    expect(formatPrefix(mapped)).toBe("::ffff:198.18.0.1/120");
  });

  test("linkLocalFromMac follows EUI-64 (as seen on Linux: ee:8d:f7:7d:5e:70)", () => {
    expect(formatAddr(linkLocalFromMac("ee:8d:f7:7d:5e:70"))).toBe("fe80::ec8d:f7ff:fe7d:5e70");
  });
});
