import { describe, expect, test } from "bun:test";
import { parseAddrs, parseLinks, parseRoutes } from "./parse.ts";

// Trimmed from iproute2 6.1 output on Linux 6.x.
const LINKS = JSON.stringify([
  {
    ifindex: 1,
    ifname: "lo",
    flags: ["LOOPBACK", "UP", "LOWER_UP"],
    mtu: 65536,
    operstate: "UNKNOWN",
    link_type: "loopback",
    address: "00:00:00:00:00:00",
  },
  {
    ifindex: 2,
    link_index: 7,
    ifname: "eth0",
    flags: ["BROADCAST", "MULTICAST", "PROMISC", "UP"],
    mtu: 1400,
    master: "br0",
    operstate: "LOWERLAYERDOWN",
    link_type: "ether",
    address: "02:00:00:00:00:01",
    link_netnsid: 0,
    linkinfo: {
      info_kind: "veth",
      info_slave_kind: "bridge",
      info_slave_data: { state: "disabled", hairpin: true, isolated: false },
    },
  },
  {
    ifindex: 4,
    ifname: "br0",
    flags: ["BROADCAST"],
    mtu: 1500,
    operstate: "DOWN",
    address: "ce:6a:47:63:e7:08",
    linkinfo: { info_kind: "bridge", info_data: { vlan_filtering: 1 } },
  },
  {
    ifindex: 5,
    ifname: "br0.10",
    link: "br0",
    flags: [],
    mtu: 1500,
    operstate: "DOWN",
    address: "ce:6a:47:63:e7:08",
    linkinfo: { info_kind: "vlan", info_data: { protocol: "802.1Q", id: 10 } },
  },
]);

describe("parseLinks", () => {
  test("reads kind, flags, master, veth peer, port flags, bridge and vlan data", () => {
    const [lo, eth0, br0, vlan] = parseLinks(LINKS);
    expect(lo).toEqual({
      index: 1,
      name: "lo",
      kind: "loopback",
      mac: "00:00:00:00:00:00",
      mtu: 65536,
      up: true,
      operState: "UNKNOWN",
      promisc: false,
    });
    expect(eth0).toMatchObject({
      kind: "veth",
      up: true,
      promisc: true,
      master: "br0",
      peerIndex: 7,
      hairpin: true,
      isolated: false,
      operState: "LOWERLAYERDOWN",
    });
    expect(br0).toMatchObject({ kind: "bridge", up: false, vlanFiltering: true });
    expect(vlan).toMatchObject({ kind: "vlan", vlanId: 10, parent: "br0" });
  });

  test("reads empty output as no links", () => {
    expect(parseLinks("")).toEqual([]);
  });
});

describe("parseAddrs", () => {
  test("flattens addr_info with families, scopes and DAD flags", () => {
    const text = JSON.stringify([
      {
        ifname: "eth0",
        addr_info: [
          { family: "inet", local: "198.18.0.5", prefixlen: 24, scope: "global" },
          { family: "inet6", local: "2001:db8::5", prefixlen: 64, scope: "global", tentative: true },
          { family: "inet6", local: "fe80::1", prefixlen: 64, scope: "link", dadfailed: true, tentative: true },
        ],
      },
    ]);
    expect(parseAddrs(text)).toEqual([
      { dev: "eth0", cidr: "198.18.0.5/24", family: 4, scope: "global" },
      { dev: "eth0", cidr: "2001:db8::5/64", family: 6, scope: "global", tentative: true },
      { dev: "eth0", cidr: "fe80::1/64", family: 6, scope: "link", tentative: true, dadfailed: true },
    ]);
  });
});

describe("parseRoutes", () => {
  test("spells default and host routes as CIDRs and fills iproute2's omitted defaults", () => {
    const v4 = JSON.stringify([
      { dst: "default", gateway: "198.18.0.1", dev: "eth0", flags: [] },
      { dst: "198.18.0.0/24", dev: "eth0", protocol: "kernel", scope: "link", prefsrc: "198.18.0.5", flags: [] },
      {
        dst: "198.19.0.7",
        gateway: "198.18.0.1",
        dev: "eth0",
        metric: 5,
        table: "100",
        flags: ["onlink"],
        metrics: [{ mtu: 1300, advmss: 1200 }],
      },
    ]);
    expect(parseRoutes(v4, 4)).toEqual([
      { dst: "0.0.0.0/0", family: 4, gw: "198.18.0.1", dev: "eth0", scope: "global", protocol: "boot" },
      { dst: "198.18.0.0/24", family: 4, dev: "eth0", src: "198.18.0.5", scope: "link", protocol: "kernel" },
      {
        dst: "198.19.0.7/32",
        family: 4,
        gw: "198.18.0.1",
        dev: "eth0",
        scope: "global",
        table: 100,
        metric: 5,
        mtu: 1300,
        advmss: 1200,
        protocol: "boot",
      },
    ]);
    expect(
      parseRoutes(JSON.stringify([{ dst: "default", gateway: "2001:db8::1", dev: "eth0", metric: 1024 }]), 6),
    ).toEqual([
      { dst: "::/0", family: 6, gw: "2001:db8::1", dev: "eth0", scope: "global", metric: 1024, protocol: "boot" },
    ]);
  });
});
