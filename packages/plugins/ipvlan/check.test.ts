import { describe, expect, test } from "bun:test";
import type { LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkIpvlan } from "./check.ts";

const NS = "/var/run/netns/c1";
const prev: Result100 = { cniVersion: "1.1.0", interfaces: [{ name: "eth0", mac: "02:00:00:00:00:01", sandbox: NS }] };
const link = (extra: Partial<LinkInfo> = {}): LinkInfo => ({
  index: 2,
  name: "eth0",
  kind: "ipvlan",
  mac: "02:00:00:00:00:01",
  mtu: 1500,
  up: true,
  operState: "UP",
  promisc: false,
  ipvlanMode: "l2",
  ...extra,
});

describe("checkIpvlan", () => {
  test("passes for an ipvlan in the configured mode (l2 when empty)", () => {
    expect(checkIpvlan("", "eth0", NS, prev, { link: link(), addrs: [], routes: [] })).toBeUndefined();
  });

  test("reports a mode, a kind and a MAC that differ in the reference's words", () => {
    expect(checkIpvlan("l3", "eth0", NS, prev, { link: link(), addrs: [], routes: [] })).toBe(
      "Container IPVlan mode l2 does not match expected value: l3",
    );
    expect(checkIpvlan("l2", "eth0", NS, prev, { link: link({ kind: "macvlan" }), addrs: [], routes: [] })).toBe(
      "Error: Container interface eth0 not of type ipvlan",
    );
    expect(
      checkIpvlan("l2", "eth0", NS, prev, { link: link({ mac: "02:00:00:00:00:09" }), addrs: [], routes: [] }),
    ).toBe("Interface eth0 Mac 02:00:00:00:00:01 doesn't match container Mac: 02:00:00:00:00:09");
    expect(checkIpvlan("l2", "eth0", NS, prev, { link: undefined, addrs: [], routes: [] })).toBe(
      "Container Interface name in prevResult: eth0 not found",
    );
    expect(checkIpvlan("l2", "eth1", NS, prev, { link: undefined, addrs: [], routes: [] })).toBe(
      "Container interface name missing in prevResult: ",
    );
  });
});
