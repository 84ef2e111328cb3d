import { describe, expect, test } from "bun:test";
import type { IPNet } from "@tscni/spec/ipnet";
import { parseCidr } from "./ip.ts";
import { invariantProblems } from "./invariants.ts";
import type { Link, NsState, World } from "./state.ts";

function ns(path: string, links: Link[]): NsState {
  return {
    path,
    links: new Map(links.map((l) => [l.index, l])),
    lastIndex: Math.max(0, ...links.map((l) => l.index)),
    addrs: [],
    routes: [],
    sysctls: new Map(),
    ifSysctls: new Map(links.map((l) => [l.index, new Map()])),
  };
}

const link = (index: number, name: string, extra: Partial<Link> = {}): Link => ({
  index,
  name,
  kind: "veth",
  mac: "02:00:00:00:00:01",
  mtu: 1500,
  up: true,
  promisc: false,
  ...extra,
});

function world(...spaces: NsState[]): World {
  return { namespaces: new Map(spaces.map((s) => [s.path, s])), macSeed: 1 };
}

describe("invariants", () => {
  test("a consistent pair of veths has no problems", () => {
    const a = ns("a", [link(1, "x", { peer: { ns: "b", index: 1 } })]);
    const b = ns("b", [link(1, "y", { peer: { ns: "a", index: 1 } })]);
    expect(invariantProblems(world(a, b))).toEqual([]);
  });

  test("a veth without its peer, a duplicate name and a non-bridge master are reported", () => {
    const a = ns("a", [link(1, "x", { peer: { ns: "b", index: 1 } }), link(2, "x", { kind: "bridge", master: 1 })]);
    expect(invariantProblems(world(a))).toEqual([
      'veth "x" has no live peer in netns "a"',
      'link name "x" is not unique in netns "a"',
      'master of "x" is not a bridge in netns "a"',
    ]);
  });

  test("addresses and routes on missing links and orphan connected routes are reported", () => {
    const a = ns("a", [link(1, "br", { kind: "bridge" })]);
    const dst = parseCidr("198.18.0.0/24") as IPNet;
    a.addrs.push({ link: 7, cidr: parseCidr("198.18.0.1/24") as IPNet, scope: "global", noprefixroute: false });
    a.routes.push({ dst, dev: 1, scope: "link", protocol: "kernel" }, { dst, dev: 9, scope: "link", protocol: "boot" });
    expect(invariantProblems(world(a))).toEqual([
      'address on a missing link 7 in netns "a"',
      `connected route to "${dst.ip.value}/24" has no address in netns "a"`,
      'route through a missing link 9 in netns "a"',
    ]);
  });
});
