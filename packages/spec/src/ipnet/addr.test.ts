import { describe, expect, test } from "bun:test";
import { compareIP, formatAddr, formatIP, ipFromBytes, ipToBytes, nextIP, parseAddr, parseIP, prevIP } from "./addr.ts";

describe("parseIP and formatIP", () => {
  test("print IPv6 as Go's net.IP.String does: longest zero run compressed, first on ties", () => {
    const cases: [string, string][] = [
      ["2001:0db8:0000:0000:0001:0000:0000:0001", "2001:db8::1:0:0:1"],
      ["2001:db8:0:1:0:0:0:0", "2001:db8:0:1::"],
      ["2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1"],
      ["0:0:0:0:0:0:0:0", "::"],
      ["0:0:0:0:0:0:0:1", "::1"],
      ["fe80::", "fe80::"],
      ["2001:db8:1:2:3:4:0:5", "2001:db8:1:2:3:4:0:5"],
      ["2001:DB8::A", "2001:db8::a"],
      ["::ffff:198.18.0.1", "198.18.0.1"],
      ["::1.2.3.4", "::102:304"],
    ];
    for (const [input, want] of cases) expect(formatIP(parseIP(input)!)).toBe(want);
  });

  test("parseIP reads IPv4 and IPv6 into their values", () => {
    expect(parseIP("198.18.0.1")).toEqual({ family: 4, value: 0xc6120001n });
    expect(parseIP("::1")).toEqual({ family: 6, value: 1n });
  });

  test("parseIP canonicalises an IPv4-mapped IPv6 address to IPv4, as canonicalizeIP does", () => {
    expect(parseIP("::ffff:10.0.0.1")).toEqual({ family: 4, value: 0x0a000001n });
    expect(parseIP("0:0:0:0:0:FFFF:a00:1")).toEqual({ family: 4, value: 0x0a000001n });
  });

  test("parseIP rejects what Go's net.ParseIP rejects", () => {
    const bad = [
      "",
      "1.2.3",
      "1.2.3.4.5",
      "256.0.0.1",
      "01.2.3.4",
      "1.2.3.04",
      "1::2::3",
      "12345::",
      "1:2:3:4:5:6:7:8:9",
      "fe80::1%eth0",
      "::1/64",
      "1.2.3.4/8",
      "::g",
      "1.2.3.4::",
      "1.2.3.4::5",
    ];
    for (const text of bad) {
      expect(parseIP(text)).toBeUndefined();
      expect(parseAddr(text)).toBeUndefined();
    }
  });

  test("an IPv6 value in ::ffff:0:0/96 prints dotted, as Go prints the 16 bytes NextIP returns", () => {
    expect(formatIP({ family: 6, value: 0xffff0a000001n })).toBe("10.0.0.1");
  });
});

describe("parseAddr and formatAddr", () => {
  test("keep an IPv4-mapped address IPv6, as netip.ParseAddr and Linux do", () => {
    const mapped = parseAddr("::ffff:198.18.0.1")!;
    expect(mapped).toEqual({ family: 6, value: 0xffffc6120001n });
    expect(formatAddr(mapped)).toBe("::ffff:198.18.0.1");
    expect(formatAddr(parseAddr("::FFFF:c612:1")!)).toBe("::ffff:198.18.0.1");
  });

  test("read and print every other address as parseIP and formatIP do", () => {
    expect(parseAddr("198.18.0.1")).toEqual({ family: 4, value: 0xc6120001n });
    expect(formatAddr(parseAddr("2001:DB8:0:0:0:0:0:1")!)).toBe("2001:db8::1");
    expect(formatAddr(parseAddr("::1.2.3.4")!)).toBe("::102:304");
  });
});

describe("bytes", () => {
  test("ipToBytes keeps IPv4 in its mapped form and ipFromBytes reads it back", () => {
    const bytes = ipToBytes({ family: 4, value: 0x0a000001n });
    expect([...bytes]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1]);
    expect(ipFromBytes(bytes)).toEqual({ family: 4, value: 0x0a000001n });
    expect(ipFromBytes(bytes, 6)).toEqual({ family: 6, value: 0xffff0a000001n });
  });
});

describe("IP arithmetic", () => {
  test("nextIP and prevIP step by one and stop at the family's ends", () => {
    expect(formatIP(nextIP(parseIP("198.18.0.255")!)!)).toBe("198.18.1.0");
    expect(formatIP(prevIP(parseIP("2001:db8::")!)!)).toBe("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff");
    expect(nextIP(parseIP("255.255.255.255")!)).toBeUndefined();
    expect(nextIP(parseIP("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")!)).toBeUndefined();
    expect(prevIP(parseIP("0.0.0.0")!)).toBeUndefined();
  });

  test("compareIP orders addresses numerically, IPv4 first", () => {
    expect(compareIP(parseIP("198.18.0.9")!, parseIP("198.18.0.10")!)).toBeLessThan(0);
    expect(compareIP(parseIP("2001:db8::10")!, parseIP("2001:db8::9")!)).toBeGreaterThan(0);
    expect(compareIP(parseIP("255.255.255.255")!, parseIP("::")!)).toBeLessThan(0);
    expect(compareIP(parseIP("::1")!, parseIP("::1")!)).toBe(0);
  });
});
