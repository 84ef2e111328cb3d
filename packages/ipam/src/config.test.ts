import { describe, expect, test } from "bun:test";
import { type IPAMConfig, loadIPAMConfig } from "./config.ts";
import { formatIP, parseCIDR, parseIP } from "@tscni/spec/ipnet";
import { canonicalizeRange, rangeString } from "./range.ts";
import { canonicalizeRangeSet } from "./range-set.ts";

const range = (subnet: string, extra: { rangeStart?: string; rangeEnd?: string; gateway?: string } = {}) =>
  canonicalizeRange({
    subnet: parseCIDR(subnet)!,
    ...(extra.rangeStart ? { rangeStart: parseIP(extra.rangeStart)! } : {}),
    ...(extra.rangeEnd ? { rangeEnd: parseIP(extra.rangeEnd)! } : {}),
    ...(extra.gateway ? { gateway: parseIP(extra.gateway)! } : {}),
  });

function load(ipam: unknown, extra: Record<string, unknown> = {}): IPAMConfig {
  const out = loadIPAMConfig({ name: "net1", cniVersion: "1.1.0", ipam, ...extra });
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

function loadError(ipam: unknown, extra: Record<string, unknown> = {}): string {
  const out = loadIPAMConfig({ name: "net1", cniVersion: "1.1.0", ...(ipam === undefined ? {} : { ipam }), ...extra });
  if (out.ok) throw new Error("expected a failure");
  return out.error;
}

describe("canonicalizeRange", () => {
  test("defaults an IPv4 range to gateway .1, start .1 (the gateway is skipped later) and end .254", () => {
    const r = range("198.18.0.0/24");
    expect(r.ok && [formatIP(r.value.gateway), rangeString(r.value)]).toEqual([
      "198.18.0.1",
      "198.18.0.1-198.18.0.254",
    ]);
  });

  test("defaults an IPv6 range end to the real last address, not ::255 (§10 item 12)", () => {
    const r = range("2001:db8::/64");
    expect(r.ok && rangeString(r.value)).toBe("2001:db8::1-2001:db8::ffff:ffff:ffff:ffff");
  });

  test("rejects a /31, a /32, a /127 and a /128 as too small", () => {
    for (const net of ["198.18.0.0/31", "198.18.0.0/32", "2001:db8::/127", "2001:db8::/128"]) {
      expect(range(net)).toEqual({ ok: false, error: `Network ${net} too small to allocate from` });
    }
    expect(range("198.18.0.0/30").ok).toBe(true);
  });

  test("rejects a subnet with host bits set and names its network address", () => {
    expect(range("198.18.0.5/24")).toEqual({
      ok: false,
      error: "Network has host bits set. For a subnet mask of length 24 the network address is 198.18.0.0",
    });
  });

  test("rejects a rangeStart or rangeEnd outside the subnet, and an end before the start", () => {
    expect(range("198.18.0.0/24", { rangeStart: "198.18.1.5" })).toEqual({
      ok: false,
      error: "RangeStart 198.18.1.5 not in network 198.18.0.0/24",
    });
    expect(range("198.18.0.0/24", { rangeEnd: "198.18.1.5" })).toEqual({
      ok: false,
      error: "RangeEnd 198.18.1.5 not in network 198.18.0.0/24",
    });
    expect(range("198.18.0.0/24", { rangeStart: "198.18.0.50", rangeEnd: "198.18.0.40" })).toEqual({
      ok: false,
      error: "RangeStart 198.18.0.50 not in network 198.18.0.0/24",
    });
  });

  test("accepts a gateway outside the subnet, as upstream does", () => {
    const r = range("198.18.0.0/24", { gateway: "198.19.0.1" });
    expect(r.ok && formatIP(r.value.gateway)).toBe("198.19.0.1");
  });

  test("rejects an IPv4 address written as a v4-mapped IPv6 CIDR: the mask stays 128 bits", () => {
    expect(range("::ffff:198.18.0.0/120")).toEqual({ ok: false, error: "IPNet IP and Mask version mismatch" });
    // Too small by its 128-bit mask; Go's IPNet.String prints the mask's last 32 bits.
    expect(range("::ffff:198.18.0.0/127")).toEqual({
      ok: false,
      error: "Network 198.18.0.0/31 too small to allocate from",
    });
  });

  test("reads a subnet prefix with leading zeros, as Go's ParseCIDR does", () => {
    const r = range("198.18.0.0/0024");
    expect(r.ok && rangeString(r.value)).toBe("198.18.0.1-198.18.0.254");
  });
});

describe("canonicalizeRangeSet", () => {
  const set = (...subnets: string[]) => canonicalizeRangeSet(subnets.map((s) => ({ subnet: parseCIDR(s)! })));

  test("rejects an empty set, mixed families and overlapping ranges", () => {
    expect(set()).toEqual({ ok: false, error: "empty range set" });
    expect(set("198.18.0.0/24", "2001:db8::/64")).toEqual({ ok: false, error: "mixed address families" });
    expect(set("198.18.0.0/24", "198.18.0.0/25")).toEqual({
      ok: false,
      error: "subnets 198.18.0.1-198.18.0.254 and 198.18.0.1-198.18.0.126 overlap",
    });
  });
});

describe("loadIPAMConfig", () => {
  test("fails without an ipam key and without ranges", () => {
    expect(loadError(undefined)).toBe("IPAM config missing 'ipam' key");
    expect(loadError({ type: "host-local" })).toBe("no IP ranges specified");
  });

  test("orders ranges: the ipRanges capability, then the legacy range, then ranges", () => {
    const conf = load(
      { subnet: "198.18.1.0/24", ranges: [[{ subnet: "198.18.2.0/24" }]] },
      { runtimeConfig: { ipRanges: [[{ subnet: "198.18.3.0/24" }]] } },
    );
    expect(conf.ranges.map((s) => rangeString(s[0]!))).toEqual([
      "198.18.3.1-198.18.3.254",
      "198.18.1.1-198.18.1.254",
      "198.18.2.1-198.18.2.254",
    ]);
  });

  test("wraps a bad range set with its index", () => {
    expect(loadError({ ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "198.18.1.0/31" }]] })).toBe(
      "invalid range set 1: Network 198.18.1.0/31 too small to allocate from",
    );
    expect(loadError({ ranges: [[]] })).toBe("invalid range set 0: empty range set");
  });

  test("rejects overlapping range sets", () => {
    expect(loadError({ ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "198.18.0.0/16" }]] })).toBe(
      "range set 0 overlaps with 1",
    );
  });

  test("allows two sets of one family only from 0.3.0 on (VN-7)", () => {
    const ipam = { ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "198.18.1.0/24" }]] };
    expect(loadError(ipam, { cniVersion: "0.2.0" })).toBe(
      "CNI version 0.2.0 does not support more than 1 address per family",
    );
    expect(loadIPAMConfig({ name: "n", cniVersion: "0.3.0", ipam }).ok).toBe(true);
    const dual = { ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "2001:db8::/64" }]] };
    expect(loadIPAMConfig({ name: "n", cniVersion: "0.1.0", ipam: dual }).ok).toBe(true);
  });

  test("merges requested IPs from CNI_ARGS, args.cni.ips and runtimeConfig.ips in that order, prefixes ignored (CA-2)", () => {
    const out = loadIPAMConfig(
      {
        name: "n",
        ipam: { subnet: "198.18.0.0/24" },
        args: { cni: { ips: ["198.18.0.20/24"] } },
        runtimeConfig: { ips: ["198.18.0.30"] },
      },
      parseIP("198.18.0.10"),
    );
    expect(out.ok && out.value.requestedIPs.map(formatIP)).toEqual(["198.18.0.10", "198.18.0.20", "198.18.0.30"]);
  });

  test("defaults dataDir to /var/lib/cni/networks and keeps routes as written", () => {
    const conf = load({
      subnet: "198.18.0.0/24",
      routes: [{ dst: "0.0.0.0/0" }, { dst: "2001:DB8::/32", gw: "2001:db8::1" }],
    });
    expect(conf.dataDir).toBe("/var/lib/cni/networks");
    expect(conf.routes).toEqual([{ dst: "0.0.0.0/0" }, { dst: "2001:db8::/32", gw: "2001:db8::1" }]);
    expect(load({ subnet: "198.18.0.0/24", dataDir: "/tmp/x" }).dataDir).toBe("/tmp/x");
  });

  test("reports malformed addresses with Go's messages, without a path as the reference", () => {
    expect(loadError({ subnet: "198.18.0.0/33" })).toBe("invalid CIDR address: 198.18.0.0/33");
    expect(loadError({ ranges: [[{ subnet: "198.18.0.0/24", rangeStart: "x" }]] })).toBe("invalid IP address: x");
    expect(loadError({ subnet: "198.18.0.0/24" }, { args: { cni: { ips: ["nope"] } } })).toBe(
      "invalid IP address nope",
    );
  });

  test("reports a wrongly typed field as Go's json decoder does", () => {
    expect(loadError({ ranges: "x" })).toBe(
      "json: cannot unmarshal string into Go struct field IPAMConfig.ipam.ranges of type []allocator.RangeSet",
    );
    expect(loadError({ ranges: ["x"] })).toBe(
      "json: cannot unmarshal string into Go struct field IPAMConfig.ipam.ranges of type allocator.RangeSet",
    );
    expect(loadError({ subnet: 5 })).toBe(
      "json: cannot unmarshal number into Go struct field IPAMConfig.ipam.subnet of type string",
    );
    expect(loadError({ subnet: "198.18.0.0/24" }, { args: { cni: { ips: "x" } } })).toBe(
      "json: cannot unmarshal string into Go struct field IPAMArgs.args.cni.ips of type []*ip.IP",
    );
  });

  test("reads an empty rangeStart as unset, as Go's net.IP does", () => {
    const conf = load({ subnet: "198.18.0.0/24", rangeStart: "", gateway: null });
    expect(rangeString(conf.ranges[0]![0]!)).toBe("198.18.0.1-198.18.0.254");
  });
});
