import { describe, expect, test } from "bun:test";
import type { LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkVlan } from "./check.ts";

const NS = "/var/run/netns/c1";
const prev: Result100 = { cniVersion: "1.1.0", interfaces: [{ name: "eth0", mac: "02:00:00:00:00:01", sandbox: NS }] };
const link = (extra: Partial<LinkInfo> = {}): LinkInfo => ({
  index: 2,
  name: "eth0",
  kind: "vlan",
  mac: "02:00:00:00:00:01",
  mtu: 1400,
  up: true,
  operState: "UP",
  promisc: false,
  vlanId: 7,
  ...extra,
});
const check = (l: LinkInfo | undefined, vlanId = 7, mtu = 1400) =>
  checkVlan(vlanId, mtu, "eth0", NS, prev, { link: l, addrs: [], routes: [] });

describe("checkVlan", () => {
  test("passes for the recorded vlan with the configured id and MTU", () => {
    expect(check(link())).toBeUndefined();
    expect(check(link({ mtu: 1500 }), 7, 0)).toBeUndefined();
  });

  test("reports what differs in the reference's words (its id message says promisc, sic)", () => {
    expect(check(undefined)).toBe("vlan: Container Interface name in prevResult: eth0 not found");
    expect(check(link({ kind: "macvlan" }))).toBe("Error: Container interface eth0 not of type vlan");
    expect(check(link({ mac: "02:00:00:00:00:02" }))).toBe(
      "vlan: Interface eth0 Mac 02:00:00:00:00:01 doesn't match container Mac: 02:00:00:00:00:02",
    );
    expect(check(link({ vlanId: 8 }))).toBe("Error: Tuning link eth0 configured promisc is 7, current value is 8");
    expect(check(link({ mtu: 1300 }))).toBe("Error: Tuning configured MTU of eth0 is 1400, current value is 1300");
  });
});
