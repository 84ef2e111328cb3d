import { describe, expect, test } from "bun:test";
import type { LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkMacvlan, macvlanSandboxProblem } from "./check.ts";

const NS = "/var/run/netns/c1";
const prev: Result100 = { cniVersion: "1.1.0", interfaces: [{ name: "eth0", mac: "02:00:00:00:00:01", sandbox: NS }] };
const link = (extra: Partial<LinkInfo> = {}): LinkInfo => ({
  index: 2,
  name: "eth0",
  kind: "macvlan",
  mac: "02:00:00:00:00:01",
  mtu: 1500,
  up: true,
  operState: "UP",
  promisc: false,
  macvlanMode: "bridge",
  ...extra,
});
const view = (l: LinkInfo | undefined) => ({ link: l, addrs: [], routes: [] });

describe("checkMacvlan", () => {
  test("passes for a macvlan in the configured mode (bridge when empty)", () => {
    expect(checkMacvlan("", "eth0", NS, prev, view(link()))).toBeUndefined();
  });

  test("reports every problem in the reference macvlan's lower-case words, byte for byte", () => {
    expect(checkMacvlan("vepa", "eth0", NS, prev, view(link()))).toBe(
      "container macvlan mode bridge does not match expected value: vepa",
    );
    expect(checkMacvlan("bridge", "eth0", NS, prev, view(link({ kind: "ipvlan" })))).toBe(
      "error: Container interface eth0 not of type macvlan",
    );
    expect(checkMacvlan("bridge", "eth0", NS, prev, view(link({ mac: "02:00:00:00:00:09" })))).toBe(
      "interface eth0 Mac 02:00:00:00:00:01 doesn't match container Mac: 02:00:00:00:00:09",
    );
    expect(checkMacvlan("bridge", "eth0", NS, prev, view(undefined))).toBe(
      "container Interface name in prevResult: eth0 not found",
    );
    expect(checkMacvlan("bridge", "eth1", NS, prev, view(undefined))).toBe(
      "container interface name missing in prevResult: ",
    );
    expect(macvlanSandboxProblem(prev, "eth0", "/var/run/netns/c2")).toBe(
      // The reference only takes an interface whose sandbox matches, so it names none.
      "sandbox in prevResult  doesn't match configured netns: /var/run/netns/c2",
    );
  });
});
