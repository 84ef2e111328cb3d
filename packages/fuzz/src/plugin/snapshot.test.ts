import { expect, test } from "bun:test";
import { diffSnapshots, parseSnapshot, snapshotScript, splitJsonValues } from "./snapshot.ts";

const link = (ifname: string, extra = {}) => ({
  ifname,
  flags: ["UP"],
  mtu: 1500,
  address: "02:00:00:00:00:01",
  ...extra,
});
const out = (hostLinks: unknown[], nft = "") =>
  [
    "### host ip",
    JSON.stringify(hostLinks),
    JSON.stringify([
      {
        ifname: "lo",
        addr_info: [
          { local: "127.0.0.1", prefixlen: 8 },
          { local: "::1", prefixlen: 128 },
        ],
      },
    ]),
    JSON.stringify([
      { dst: "fe80::/64", dev: "v0" },
      { dst: "198.18.0.0/24", dev: "v0", table: "main" },
    ]),
    "[]",
    "### host ip6",
    "[][]",
    "### host qdisc",
    JSON.stringify([
      { dev: "lo", kind: "noqueue", handle: "0:" },
      { dev: "v0", kind: "ingress", handle: "ffff:" },
    ]),
    "### host nft",
    nft,
  ].join("\n");

test("a snapshot keeps links, routes, qdiscs and rules but not what the kernel adds by itself", () => {
  const s = parseSnapshot(
    out([link("v0", { linkinfo: { info_kind: "veth" } })], "table ip nat {\n counter packets 9 bytes 99\n}"),
  );
  expect([...s].sort()).toEqual([
    "host link v0 kind=veth master= mtu=1500 up mac=02:00:00:00:00:01",
    "host nft counter",
    "host nft table ip nat {",
    "host nft }",
    "host qdisc v0 ingress ffff: ",
    "host route table=main type= 198.18.0.0/24 dev=v0 via= src=",
  ]);
});

test("a bridge's MAC and firewall counters do not count as a change; a new link does", () => {
  const br = (mac: string) => link("br0", { address: mac, linkinfo: { info_kind: "bridge" } });
  const a = parseSnapshot(out([br("02:00:00:00:00:01")], "counter packets 1 bytes 2"));
  const b = parseSnapshot(out([br("02:00:00:00:00:09")], "counter packets 5 bytes 60"));
  expect(diffSnapshots(a, b)).toEqual([]);
  const c = parseSnapshot(out([br("02:00:00:00:00:01"), link("veth1")]));
  expect(diffSnapshots(a, c)).toEqual([
    "+ host link veth1 kind= master= mtu=1500 up mac=02:00:00:00:00:01",
    "- host nft counter",
  ]);
});

test("splitJsonValues splits an ip batch's arrays, brackets inside strings included", () => {
  expect(splitJsonValues('[{"a":"]["}]\n[]\n[1,[2]]')).toEqual(['[{"a":"]["}]', "[]", "[1,[2]]"]);
});

test("the script reads the container through ip -n and tc -n, the firewall only in the host", () => {
  const s = snapshotScript("tscni-c");
  expect(s).toContain("ip -n tscni-c -j -d -batch -");
  expect(s).toContain("tc -n tscni-c -j qdisc show");
  expect(s).toContain("nft list ruleset");
  expect(s).not.toContain("legacy");
  expect(snapshotScript("c", true)).toContain("iptables-legacy-save");
});
