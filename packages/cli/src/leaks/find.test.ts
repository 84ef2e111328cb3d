import { describe, expect, test } from "bun:test";
import { type NetworkState, findLeaks } from "./find.ts";

const attachment = { containerID: "c1", ifName: "eth0", netns: "/run/netns/c1", addresses: ["198.18.0.2"] };
const reservation = { ip: "198.18.0.2", id: "c1", ifname: "eth0", dir: "/d/net" };
const state = (over: Partial<NetworkState>): NetworkState => ({
  name: "net",
  usesHostLocal: true,
  attachments: [attachment],
  reservations: [reservation],
  unknown: [],
  ...over,
});

describe("findLeaks", () => {
  test("finds nothing when every attachment has its netns and its reservation", () => {
    expect(findLeaks(state({}), () => true)).toEqual([]);
  });

  test("calls an attachment with no recorded netns stale", () => {
    const leaks = findLeaks(state({ attachments: [{ ...attachment, netns: "" }] }), () => true);
    expect(leaks).toEqual([
      {
        network: "net",
        kind: "stale attachment",
        containerID: "c1",
        ifName: "eth0",
        where: "-",
        why: "the cache records no netns",
      },
    ]);
  });

  test("names the holder when a cached address is reserved by another attachment", () => {
    const leaks = findLeaks(state({ reservations: [{ ...reservation, ifname: "eth1" }] }), () => true);
    expect(leaks.map((l) => [l.kind, l.containerID, l.where, l.why])).toEqual([
      ["leaked address", "c1", "198.18.0.2", "reserved in /d/net but no cached attachment holds it"],
      ["missing reservation", "c1", "198.18.0.2", "reserved by c1 eth1 instead"],
    ]);
  });

  test("ignores reservations and addresses of a network that does not use host-local", () => {
    expect(findLeaks(state({ usesHostLocal: false, reservations: [] }), () => true)).toEqual([]);
  });
});
