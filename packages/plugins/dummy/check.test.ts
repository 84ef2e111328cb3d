import { describe, expect, test } from "bun:test";
import type { LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkDummy } from "./check.ts";

const NS = "/var/run/netns/c1";
const prev: Result100 = {
  cniVersion: "1.1.0",
  interfaces: [{ name: "eth0", mac: "02:00:00:00:00:01", sandbox: NS }],
  ips: [{ address: "198.18.3.4/24", interface: 0 }],
};
const link = (extra: Partial<LinkInfo> = {}): LinkInfo => ({
  index: 2,
  name: "eth0",
  kind: "dummy",
  mac: "02:00:00:00:00:01",
  mtu: 1500,
  up: true,
  operState: "UNKNOWN",
  promisc: false,
  ...extra,
});
const addrs = [{ dev: "eth0", cidr: "198.18.3.4/24", family: 4 as const, scope: "global" }];
const routes = [{ dst: "198.18.3.0/24", family: 4 as const, dev: "eth0", scope: "link" }];

describe("checkDummy", () => {
  test("passes for an up dummy with the recorded MAC and address", () => {
    expect(checkDummy("eth0", NS, prev, { link: link(), addrs, routes })).toBeUndefined();
  });

  test("reports a wrong sandbox, kind, a down link and a missing address in the reference's words", () => {
    expect(checkDummy("eth0", "/var/run/netns/other", prev, { link: link(), addrs, routes })).toBe(
      "Sandbox in prevResult  doesn't match configured netns: /var/run/netns/other",
    );
    expect(checkDummy("eth0", NS, prev, { link: link({ kind: "veth" }), addrs, routes })).toBe(
      "Error: Container interface eth0 not of type dummy",
    );
    expect(checkDummy("eth0", NS, prev, { link: link({ up: false }), addrs, routes })).toBe("Interface eth0 is down");
    expect(checkDummy("eth0", NS, prev, { link: link(), addrs: [], routes })).toBe(
      "Failed to match addr 198.18.3.4/24 on interface eth0",
    );
  });
});
