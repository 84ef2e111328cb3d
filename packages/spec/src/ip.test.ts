import { describe, expect, test } from "bun:test";
import { canonicalCIDR, canonicalIP, formatCIDR, ipFamily, parseCIDR, parseIP } from "./ip.ts";

describe("parseIP and canonicalIP (Go net.ParseIP, IP.String)", () => {
  test("canonicalIP keeps dotted IPv4 as it is", () => {
    expect(canonicalIP("10.1.0.5")).toBe("10.1.0.5");
    expect(canonicalIP("0.0.0.0")).toBe("0.0.0.0");
    expect(canonicalIP("255.255.255.255")).toBe("255.255.255.255");
  });

  test("canonicalIP rejects what Go's ParseIP rejects in IPv4", () => {
    for (const bad of [
      "010.1.0.5",
      "1.2.3.04",
      "00.1.2.3",
      "256.1.1.1",
      "1.2.3",
      "1.2.3.4.5",
      "1..2.3",
      ".1.2.3",
      "1.2.3.",
      "1.2.3.4 ",
      " 1.2.3.4",
      "1.2.3.-4",
      "1.2.3.+4",
      "0x1.2.3.4",
      "",
      "abc",
    ]) {
      expect(canonicalIP(bad)).toBeUndefined();
    }
  });

  test("canonicalIP prints IPv6 in RFC 5952 form, lower case, first longest zero run compressed", () => {
    expect(canonicalIP("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(canonicalIP("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1");
    expect(canonicalIP("2001:0:0:1:0:0:0:1")).toBe("2001:0:0:1::1");
    expect(canonicalIP("2001:db8:0:1:1:1:1:1")).toBe("2001:db8:0:1:1:1:1:1");
    expect(canonicalIP("0:0:0:0:0:0:0:0")).toBe("::");
    expect(canonicalIP("::1")).toBe("::1");
    expect(canonicalIP("1::")).toBe("1::");
    expect(canonicalIP("0001:0db8::000a")).toBe("1:db8::a");
  });

  test("canonicalIP prints an IPv4-mapped IPv6 address as IPv4, as Go does", () => {
    expect(canonicalIP("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(canonicalIP("::FFFF:102:304")).toBe("1.2.3.4");
    expect(canonicalIP("0:0:0:0:0:ffff:10.0.0.1")).toBe("10.0.0.1");
  });

  test("canonicalIP prints an IPv4-compatible address in hex, as Go does", () => {
    expect(canonicalIP("::1.2.3.4")).toBe("::102:304");
  });

  test("canonicalIP rejects zones, extra colons, long groups and misplaced IPv4", () => {
    for (const bad of [
      "fe80::1%eth0",
      "fe80::1%",
      "%eth0",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "12345::",
      ":1::",
      "1::2:",
      "1:2:3:4:5:6:7",
      "::1.2.3.4:5",
      "1:2:3:4:5:6:7:1.2.3.4",
      "::ffff:1.2.3.04",
      "1:2:3:4:5:6:7::8",
      "g::",
    ]) {
      expect(canonicalIP(bad)).toBeUndefined();
    }
  });

  test("parseIP keeps IPv4 in its 16-byte IPv4-mapped form", () => {
    expect([...(parseIP("1.2.3.4") ?? [])]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
  });
});

describe("parseCIDR and canonicalCIDR (Go net.ParseCIDR, IPNet.String)", () => {
  test("canonicalCIDR keeps the host bits (R-1)", () => {
    expect(canonicalCIDR("10.1.0.5/16")).toBe("10.1.0.5/16");
    expect(canonicalCIDR("2001:DB8::5/64")).toBe("2001:db8::5/64");
  });

  test("canonicalCIDR accepts leading zeros in the prefix, as Go's dtoi does", () => {
    expect(canonicalCIDR("10.0.0.1/008")).toBe("10.0.0.1/8");
  });

  test("canonicalCIDR rejects bad prefixes, zones and missing slashes", () => {
    for (const bad of [
      "10.0.0.1/33",
      "10.0.0.1/",
      "10.0.0.1",
      "10.0.0.1/+8",
      "10.0.0.1/-1",
      "10.0.0.1/8/8",
      "10.0.0.1/ 8",
      "::1/129",
      "fe80::1%eth0/64",
      "010.0.0.1/8",
      "/8",
      "10.0.0.1/8a",
    ]) {
      expect(canonicalCIDR(bad)).toBeUndefined();
    }
  });

  test("canonicalCIDR counts an IPv4-mapped prefix in 128 bits and prints its last 32", () => {
    expect(canonicalCIDR("::ffff:1.2.3.4/120")).toBe("1.2.3.4/24");
    expect(canonicalCIDR("::ffff:1.2.3.4/128")).toBe("1.2.3.4/32");
    expect(canonicalCIDR("::ffff:1.2.3.4/64")).toBe("1.2.3.4/0");
    expect(canonicalCIDR("::ffff:1.2.3.4/24")).toBe("1.2.3.4/0");
  });

  test("parseCIDR reports the bit length of the address syntax", () => {
    expect(parseCIDR("1.2.3.4/24")?.bits).toBe(32);
    expect(parseCIDR("::ffff:1.2.3.4/120")?.bits).toBe(128);
    expect(parseCIDR("::ffff:1.2.3.4/33")?.prefix).toBe(33);
  });

  test("formatCIDR prints a parsed CIDR back in Go's form", () => {
    const parsed = parseCIDR("2001:db8:0:0::1/48");
    expect(parsed && formatCIDR(parsed)).toBe("2001:db8::1/48");
  });
});

describe("ipFamily", () => {
  test("ipFamily is 4 for IPv4 and IPv4-mapped addresses (Go To4() != nil)", () => {
    expect(ipFamily("10.0.0.1")).toBe(4);
    expect(ipFamily("10.0.0.0/8")).toBe(4);
    expect(ipFamily("::ffff:10.0.0.1")).toBe(4);
    expect(ipFamily("::ffff:10.0.0.1/104")).toBe(4);
  });

  test("ipFamily is 6 for other IPv6 addresses and undefined for garbage", () => {
    expect(ipFamily("::1")).toBe(6);
    expect(ipFamily("::/0")).toBe(6);
    expect(ipFamily("::1.2.3.4")).toBe(6);
    expect(ipFamily("nope")).toBeUndefined();
    expect(ipFamily("10.0.0.1/99")).toBeUndefined();
  });
});
