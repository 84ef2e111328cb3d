import { describe, expect, test } from "bun:test";
import { formatIP, parseIP } from "./addr.ts";
import {
  contains,
  formatCIDR,
  formatPrefix,
  hostNet,
  isNetwork,
  lastAddress,
  network,
  networkAddress,
  parseCIDR,
  parsePrefix,
} from "./net.ts";

describe("parseCIDR and formatCIDR", () => {
  test("keep the host bits and record the mask's width by syntax", () => {
    expect(parseCIDR("198.18.0.5/24")).toEqual({ ip: { family: 4, value: 0xc6120005n }, prefix: 24, bits: 32 });
    expect(formatCIDR(parseCIDR("2001:DB8::0005/64")!)).toBe("2001:db8::5/64");
    expect(parseCIDR("::ffff:198.18.0.5/120")).toEqual({
      ip: { family: 4, value: 0xc6120005n },
      prefix: 120,
      bits: 128,
    });
  });

  test("print an IPv4-mapped network with the last 32 bits of its mask, as Go's IPNet.String", () => {
    expect(formatCIDR(parseCIDR("::ffff:1.2.3.4/120")!)).toBe("1.2.3.4/24");
    expect(formatCIDR(parseCIDR("::ffff:1.2.3.4/64")!)).toBe("1.2.3.4/0");
  });

  test("accept a decimal prefix with leading zeros up to the width, as Go's dtoi", () => {
    expect(formatCIDR(parseCIDR("1.2.3.4/08")!)).toBe("1.2.3.4/8");
    expect(formatCIDR(parseCIDR("1.2.3.4/0008")!)).toBe("1.2.3.4/8");
    for (const bad of [
      "1.2.3.4",
      "1.2.3.4/",
      "1.2.3.4/33",
      "::/129",
      "1.2.3.4/-1",
      "1.2.3.4/+8",
      "1.2.3.4/8/8",
      "01.2.3.4/8",
      "fe80::1%lo/64",
    ]) {
      expect(parseCIDR(bad)).toBeUndefined();
    }
  });
});

describe("parsePrefix and formatPrefix", () => {
  test("keep an IPv4-mapped network IPv6, as Linux does", () => {
    const net = parsePrefix("::ffff:198.18.0.5/120")!;
    expect(net).toEqual({ ip: { family: 6, value: 0xffffc6120005n }, prefix: 120, bits: 128 });
    expect(formatPrefix(net)).toBe("::ffff:198.18.0.5/120");
    expect(formatPrefix(network(net))).toBe("::ffff:198.18.0.0/120");
    expect(contains(net, parsePrefix("198.18.0.9/32")!.ip)).toBe(false);
  });

  test("read every other network as parseCIDR does", () => {
    expect(parsePrefix("198.18.0.5/24")).toEqual(parseCIDR("198.18.0.5/24"));
    expect(formatPrefix(parsePrefix("2001:DB8::0005/064")!)).toBe("2001:db8::5/64");
    expect(parsePrefix("198.18.0.5/33")).toBeUndefined();
    expect(parsePrefix("198.18.0.5")).toBeUndefined();
  });
});

describe("network arithmetic", () => {
  test("network clears the host bits and lastAddress sets them", () => {
    const net = parseCIDR("198.18.3.77/22")!;
    expect(formatCIDR(network(net))).toBe("198.18.0.0/22");
    expect(formatIP(networkAddress(net))).toBe("198.18.0.0");
    expect(formatIP(lastAddress(net))).toBe("198.18.3.255");
    expect(formatCIDR(network(parseCIDR("2001:db8:1::7/64")!))).toBe("2001:db8:1::/64");
    expect(formatIP(lastAddress(parseCIDR("2001:db8::/64")!))).toBe("2001:db8::ffff:ffff:ffff:ffff");
  });

  test("isNetwork is true only without host bits", () => {
    expect(isNetwork(parseCIDR("198.18.0.0/24")!)).toBe(true);
    expect(isNetwork(parseCIDR("198.18.0.1/24")!)).toBe(false);
    expect(isNetwork(parseCIDR("0.0.0.0/0")!)).toBe(true);
  });

  test("contains matches the prefix and never crosses families", () => {
    const net = parseCIDR("198.18.0.5/24")!;
    expect(contains(net, parseIP("198.18.0.200")!)).toBe(true);
    expect(contains(net, parseIP("198.18.1.1")!)).toBe(false);
    expect(contains(parseCIDR("0.0.0.0/0")!, parseIP("::1")!)).toBe(false);
    expect(contains(parseCIDR("::/0")!, parseIP("198.18.0.1")!)).toBe(false);
    expect(contains(parseCIDR("::ffff:198.18.0.0/120")!, parseIP("198.18.0.9")!)).toBe(true);
  });

  test("hostNet is the /32 or /128 of an address", () => {
    expect(formatCIDR(hostNet(parseIP("198.18.0.5")!))).toBe("198.18.0.5/32");
    expect(formatCIDR(hostNet(parseIP("2001:db8::5")!))).toBe("2001:db8::5/128");
  });
});
