import { describe, expect, test } from "bun:test";
import { parseAddr, parsePrefix } from "@tscni/spec/ipnet";
import { broadcastOf, canonicalCidr, canonicalIp, defaultDst, hostCidr, subnetText } from "./ip.ts";

describe("plugin IP text", () => {
  test("subnetText clears the host bits", () => {
    expect(subnetText(parsePrefix("198.18.3.77/22")!)).toBe("198.18.0.0/22");
    expect(subnetText(parsePrefix("2001:db8:1::7/64")!)).toBe("2001:db8:1::/64");
  });

  test("broadcastOf is the subnet's last address for IPv4 below /31, as netlink's AddrAdd sets it, and nothing else", () => {
    expect(broadcastOf(parsePrefix("198.18.3.77/22")!)).toEqual({ broadcast: "198.18.3.255" });
    expect(broadcastOf(parsePrefix("198.18.0.1/30")!)).toEqual({ broadcast: "198.18.0.3" });
    expect(broadcastOf(parsePrefix("198.18.0.0/31")!)).toEqual({});
    expect(broadcastOf(parsePrefix("198.18.0.1/32")!)).toEqual({});
    expect(broadcastOf(parsePrefix("2001:db8::5/64")!)).toEqual({});
  });

  test("hostCidr is the /32 or /128 of an address", () => {
    expect(hostCidr(parseAddr("198.18.0.5")!)).toBe("198.18.0.5/32");
    expect(hostCidr(parseAddr("2001:db8::5")!)).toBe("2001:db8::5/128");
  });

  test("canonicalCidr and canonicalIp print Go's canonical text and keep what does not parse", () => {
    expect(canonicalCidr("2001:DB8::0005/64")).toBe("2001:db8::5/64");
    expect(canonicalIp("2001:0db8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(canonicalCidr("198.18.0.1/33")).toBe("198.18.0.1/33");
    expect(canonicalIp("lo")).toBe("lo");
  });

  test("an IPv4-mapped address from the kernel stays IPv6, as Linux keeps it", () => {
    expect(canonicalCidr("::FFFF:198.18.0.1/120")).toBe("::ffff:198.18.0.1/120");
    expect(canonicalIp("::ffff:c612:1")).toBe("::ffff:198.18.0.1");
  });

  test("defaultDst is the default route of each family", () => {
    expect(defaultDst(4)).toBe("0.0.0.0/0");
    expect(defaultDst(6)).toBe("::/0");
  });
});
