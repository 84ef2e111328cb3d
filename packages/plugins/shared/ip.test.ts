import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalCidr, contains, formatIp, hostCidr, networkOf, nextIp, parseCidr, parseIp, subnetText } from "./ip.ts";

describe("ip", () => {
  test("parses and prints IPv4 and IPv6 like Go's net.IP", () => {
    expect(formatIp(parseIp("198.18.0.5")!)).toBe("198.18.0.5");
    expect(formatIp(parseIp("2001:DB8:0:0:0:0:0:1")!)).toBe("2001:db8::1");
    expect(formatIp(parseIp("2001:db8:0:1:0:0:0:1")!)).toBe("2001:db8:0:1::1");
    expect(formatIp(parseIp("::")!)).toBe("::");
    expect(parseIp("1.2.3")).toBeUndefined();
    expect(parseIp("1:2:3:4:5:6:7:8:9")).toBeUndefined();
    expect(parseIp("1::2::3")).toBeUndefined();
  });

  test("the gateway of a subnet is its network address plus one", () => {
    const c = parseCidr("198.18.3.77/22")!;
    expect(formatIp(nextIp(networkOf(c)))).toBe("198.18.0.1");
    expect(subnetText(parseCidr("2001:db8:1::7/64")!)).toBe("2001:db8:1::/64");
  });

  test("contains and host routes", () => {
    expect(contains(parseCidr("198.18.0.0/24")!, parseIp("198.18.0.200")!)).toBe(true);
    expect(contains(parseCidr("198.18.0.0/24")!, parseIp("198.18.1.1")!)).toBe(false);
    expect(contains(parseCidr("198.18.0.0/24")!, parseIp("2001:db8::1")!)).toBe(false);
    expect(hostCidr(parseIp("2001:db8::5")!)).toBe("2001:db8::5/128");
    expect(canonicalCidr("2001:DB8::0005/64")).toBe("2001:db8::5/64");
    expect(parseCidr("198.18.0.1/33")).toBeUndefined();
  });

  test("printing then parsing any IPv6 address gives it back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        const text = formatIp({ family: 6, bytes });
        expect(Array.from(parseIp(text)!.bytes)).toEqual(Array.from(bytes));
        // RFC 5952: never a lone zero group compressed, never two "::".
        expect(text.split("::").length).toBeLessThanOrEqual(2);
      }),
    );
  });

  test("printing then parsing any IPv4 address gives it back", () => {
    fc.assert(
      fc.property(fc.ipV4(), (text) => {
        expect(formatIp(parseIp(text)!)).toBe(text);
      }),
    );
  });
});
