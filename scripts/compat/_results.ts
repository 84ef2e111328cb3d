/**
 * Results for the conversion comparison: what the Debian libcni (v1.1) can hold, and
 * hand-written edge cases of the conversion rules (SPEC.md §3.7).
 */
import { withoutNewerFields } from "@tscni/fuzz";

/** The spec versions libcni v1.1 converts between (it predates 1.1.0). */
export const OLD_LIB_VERSIONS: readonly string[] = ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"];

type Json = Record<string, unknown>;

/**
 * A result reduced to the fields libcni v1.1 has: routes carry only `dst` and `gw`, and
 * interfaces no `mtu`, `socketPath` or `pciID` (all added with spec 1.1.0). The old
 * library drops the others when parsing, which is its version, not a conversion rule
 * (one home: @tscni/fuzz, whose `--against --versions` generates the same way).
 */
export const toOldLibrary: (result: Json) => Json = withoutNewerFields;

/** A named input result. */
export interface EdgeCase {
  name: string;
  result: Json;
}

/** Hand-written results at the edges of §3.7; each is converted to every version. */
export const EDGE_CASES: readonly EdgeCase[] = [
  {
    name: "an IPv6-only 0.4.0 result with an IPv4 default route (CV-1)",
    result: {
      cniVersion: "0.4.0",
      interfaces: [{ name: "eth0", mac: "c2:11:22:33:44:55", sandbox: "/var/run/netns/x" }],
      ips: [{ version: "6", interface: 0, address: "2001:db8::2/64", gateway: "2001:db8::1" }],
      routes: [
        { dst: "0.0.0.0/0", gw: "198.18.0.1" },
        { dst: "::/0", gw: "2001:db8::1" },
      ],
      dns: {},
    },
  },
  {
    name: "extra IPs of each family, dropped below 0.3.0",
    result: {
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0" }, { name: "eth1", sandbox: "/var/run/netns/y" }],
      ips: [
        { interface: 1, address: "198.18.0.2/24", gateway: "198.18.0.1" },
        { interface: 0, address: "2001:db8::2/64" },
        { address: "198.18.1.2/24", gateway: "198.18.1.1" },
        { interface: 1, address: "2001:db8:1::2/64", gateway: "2001:db8:1::1" },
      ],
      routes: [{ dst: "198.18.2.0/24", gw: "198.18.0.1" }, { dst: "2001:db8:2::/48" }],
    },
  },
  {
    name: "routes of a family without an IP, dropped below 0.3.0",
    result: {
      cniVersion: "0.3.1",
      ips: [{ version: "4", address: "198.18.0.2/24" }],
      routes: [{ dst: "::/0", gw: "2001:db8::1" }, { dst: "0.0.0.0/0" }, { dst: "2001:db8::/32" }],
      dns: { nameservers: ["198.18.0.53"] },
    },
  },
  {
    name: "interface index 0 is kept (R04-2)",
    result: {
      cniVersion: "0.4.0",
      interfaces: [{ name: "eth0", sandbox: "/var/run/netns/x" }],
      ips: [{ version: "4", interface: 0, address: "198.18.0.2/24" }],
      dns: {},
    },
  },
  {
    name: "every dns field",
    result: {
      cniVersion: "0.2.0",
      ip4: { ip: "198.18.0.2/24", gateway: "198.18.0.1", routes: [{ dst: "0.0.0.0/0", gw: "198.18.0.1" }] },
      dns: {
        nameservers: ["198.18.0.53", "2001:db8::53"],
        domain: "example.test",
        search: ["a.test", "b.test"],
        options: ["ndots:2", "rotate"],
      },
    },
  },
  {
    name: "no IP at all: cannot convert below 0.3.0",
    result: {
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0", mac: "c2:11:22:33:44:55" }],
      routes: [{ dst: "0.0.0.0/0" }],
    },
  },
  {
    name: "an IPv6-only 1.0.0 result (CV-1)",
    result: {
      cniVersion: "1.0.0",
      ips: [{ address: "2001:db8::5/128" }],
      routes: [{ dst: "0.0.0.0/0" }],
      dns: { search: ["x.test"] },
    },
  },
  {
    name: "a 0.1.0 result with both families and routes",
    result: {
      cniVersion: "0.1.0",
      ip4: {
        ip: "198.18.0.2/24",
        gateway: "198.18.0.1",
        routes: [{ dst: "198.19.0.0/16", gw: "198.18.0.254" }, { dst: "0.0.0.0/0" }],
      },
      ip6: { ip: "2001:db8::2/64", routes: [{ dst: "::/0", gw: "2001:db8::1" }] },
      dns: {},
    },
  },
  {
    name: "ips whose version is neither 4 nor 6",
    result: {
      cniVersion: "0.3.0",
      ips: [
        { version: "", address: "198.18.0.2/24" },
        { version: "5", address: "2001:db8::2/64" },
      ],
      routes: [{ dst: "0.0.0.0/0" }],
      dns: {},
    },
  },
  {
    name: "an ip4 config holding an IPv6 address",
    result: {
      cniVersion: "0.2.0",
      ip4: { ip: "2001:db8::9/64", routes: [{ dst: "::/0" }, { dst: "0.0.0.0/0" }] },
      dns: {},
    },
  },
  {
    name: "IPv4-mapped IPv6 addresses",
    result: {
      cniVersion: "1.0.0",
      ips: [{ address: "::ffff:198.18.0.5/120", gateway: "::ffff:198.18.0.1" }],
      routes: [{ dst: "::ffff:198.18.0.0/120", gw: "::ffff:198.18.0.1" }],
    },
  },
  {
    name: "upper-case IPv6 and host bits with a /0 prefix",
    result: {
      cniVersion: "0.4.0",
      ips: [
        { version: "6", address: "2001:DB8::A/0", gateway: "2001:DB8::1" },
        { version: "4", address: "198.18.0.5/0" },
      ],
      routes: [{ dst: "2001:DB8::/32", gw: "2001:DB8::1" }],
      dns: {},
    },
  },
  {
    name: "an empty 0.4.0 result",
    result: { cniVersion: "0.4.0" },
  },
  {
    name: "a result without cniVersion (read as 0.1.0, RP-1)",
    result: { ip4: { ip: "198.18.0.2/24" }, dns: { domain: "x.test" } },
  },
  {
    name: "interfaces with an empty name and no mac",
    result: {
      cniVersion: "0.4.0",
      interfaces: [{ name: "" }, { name: "veth0", mac: "00:00:00:00:00:00", sandbox: "" }],
      ips: [{ version: "4", interface: 1, address: "198.18.0.2/32" }],
      dns: {},
    },
  },
  {
    name: "an IPv4 route through an IPv6 gateway",
    result: {
      cniVersion: "1.0.0",
      ips: [{ address: "198.18.0.2/24" }, { address: "2001:db8::2/64" }],
      routes: [
        { dst: "198.19.0.0/16", gw: "2001:db8::1" },
        { dst: "2001:db8:9::/48", gw: "198.18.0.1" },
      ],
    },
  },
];

/** Malformed results: both sides must refuse them, and name the bad value alike. */
export const INVALID_CASES: readonly (EdgeCase & { goMessage: string })[] = [
  {
    name: "an IPv4 address with a leading zero",
    result: { cniVersion: "1.0.0", ips: [{ address: "198.018.0.5/24" }] },
    goMessage: "invalid CIDR address: 198.018.0.5/24",
  },
  {
    name: "an address without a prefix",
    result: { cniVersion: "0.4.0", ips: [{ version: "4", address: "198.18.0.5" }] },
    goMessage: "invalid CIDR address: 198.18.0.5",
  },
  {
    name: "an IPv6 address with a zone",
    result: { cniVersion: "1.0.0", ips: [{ address: "fe80::1%eth0/64" }] },
    goMessage: "invalid CIDR address: fe80::1%eth0/64",
  },
  {
    name: "a prefix longer than the address",
    result: { cniVersion: "0.2.0", ip4: { ip: "198.18.0.5/33" } },
    goMessage: "invalid CIDR address: 198.18.0.5/33",
  },
  {
    name: "a route to an invalid destination",
    result: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.5/24" }], routes: [{ dst: "default" }] },
    goMessage: "invalid CIDR address: default",
  },
  {
    name: "an interface index that is not an integer",
    result: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.5/24", interface: 1.5 }] },
    goMessage: "cannot unmarshal number 1.5",
  },
];
