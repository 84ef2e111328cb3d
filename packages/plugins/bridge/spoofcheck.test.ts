import { describe, expect, test } from "bun:test";
import {
  checkSpoofCheck,
  planSpoofCheckSetup,
  planSpoofCheckTeardown,
  spoofCheckId,
  spoofCheckNames,
} from "./spoofcheck.ts";

describe("macspoofchk (pkg/link/spoofcheck.go)", () => {
  test("names its chains and comment after the container ID and interface, as the reference's uniqueID", () => {
    expect(spoofCheckId("container99", "net1")).toBe("container99-net1");
    expect(spoofCheckNames("container99-net1")).toEqual({
      ifaceChain: "cni-br-iface-container99-net1",
      macChain: "cni-br-iface-container99-net1-mac",
      comment: "macspoofchk-container99-net1",
    });
  });

  test("setup is one transaction: bridge nat table, PREROUTING base chain at -300, port chains flushed, four commented rules", () => {
    expect(planSpoofCheckSetup("net0", "02:00:00:00:12:34", "container99-net1")).toEqual([
      { op: "nft.table.ensure", family: "bridge", table: "nat" },
      {
        op: "nft.chain.ensure",
        family: "bridge",
        table: "nat",
        chain: "PREROUTING",
        base: { type: "filter", hook: "prerouting", priority: -300, policy: "accept" },
      },
      { op: "nft.chain.ensure", family: "bridge", table: "nat", chain: "cni-br-iface-container99-net1" },
      { op: "nft.chain.ensure", family: "bridge", table: "nat", chain: "cni-br-iface-container99-net1-mac" },
      { op: "nft.chain.flush", family: "bridge", table: "nat", chain: "cni-br-iface-container99-net1" },
      { op: "nft.chain.flush", family: "bridge", table: "nat", chain: "cni-br-iface-container99-net1-mac" },
      {
        op: "nft.rule.delete",
        family: "bridge",
        table: "nat",
        chain: "PREROUTING",
        comment: "macspoofchk-container99-net1",
      },
      {
        op: "nft.rule.add",
        family: "bridge",
        table: "nat",
        chain: "PREROUTING",
        rule: 'iifname "net0" jump cni-br-iface-container99-net1',
        comment: "macspoofchk-container99-net1",
      },
      {
        op: "nft.rule.add",
        family: "bridge",
        table: "nat",
        chain: "cni-br-iface-container99-net1",
        rule: "jump cni-br-iface-container99-net1-mac",
        comment: "macspoofchk-container99-net1",
      },
      {
        op: "nft.rule.add",
        family: "bridge",
        table: "nat",
        chain: "cni-br-iface-container99-net1-mac",
        rule: "ether saddr 02:00:00:00:12:34 return",
        comment: "macspoofchk-container99-net1",
      },
      {
        op: "nft.rule.add",
        family: "bridge",
        table: "nat",
        chain: "cni-br-iface-container99-net1-mac",
        rule: "drop",
        comment: "macspoofchk-container99-net1",
      },
    ]);
  });

  test("the MAC is written in lower case, as nft prints it", () => {
    expect(planSpoofCheckSetup("v", "02:AB:00:00:12:34", "c-eth0")).toContainEqual(
      expect.objectContaining({ rule: "ether saddr 02:ab:00:00:12:34 return" }),
    );
  });

  test("teardown removes the base chain's jump by comment before the chains it points to", () => {
    expect(planSpoofCheckTeardown("container99-net1")).toEqual([
      {
        op: "nft.rule.delete",
        family: "bridge",
        table: "nat",
        chain: "PREROUTING",
        comment: "macspoofchk-container99-net1",
      },
      { op: "nft.chain.remove", family: "bridge", table: "nat", chain: "cni-br-iface-container99-net1" },
      { op: "nft.chain.remove", family: "bridge", table: "nat", chain: "cni-br-iface-container99-net1-mac" },
    ]);
  });

  test("checkSpoofCheck finds the jump, the MAC return and the drop by their comment, and names what is missing", () => {
    const c = "macspoofchk-c-eth0";
    const table = [
      { name: "PREROUTING", rules: [{ rule: 'iifname "veth1" jump cni-br-iface-c-eth0', comment: c, handle: 2 }] },
      { name: "cni-br-iface-c-eth0", rules: [{ rule: "jump cni-br-iface-c-eth0-mac", comment: c, handle: 3 }] },
      {
        name: "cni-br-iface-c-eth0-mac",
        rules: [
          { rule: "ether saddr 02:00:00:00:00:01 return", comment: c, handle: 4 },
          { rule: "drop", comment: c, handle: 5 },
        ],
      },
    ];
    expect(checkSpoofCheck(table, "02:00:00:00:00:01", "c-eth0")).toBeUndefined();
    expect(checkSpoofCheck(table, "02:00:00:00:00:02", "c-eth0")).toBe(
      "spoof-check: chain cni-br-iface-c-eth0-mac does not pass only 02:00:00:00:00:02",
    );
    expect(checkSpoofCheck(undefined, "02:00:00:00:00:01", "c-eth0")).toBe(
      "spoof-check: no rule in bridge nat PREROUTING jumps to cni-br-iface-c-eth0",
    );
  });
});
