import { describe, expect, test } from "bun:test";
import type { LinkInfo, LinkSet } from "@tscni/kernel";
import { parseTuningConfig } from "./config.ts";
import { planTuning } from "./plan.ts";

const NS = "/var/run/netns/c";
const LINK: LinkInfo = {
  index: 2,
  name: "eth0",
  kind: "veth",
  mac: "02:00:00:00:10:01",
  mtu: 1500,
  up: true,
  operState: "UP",
  promisc: false,
  txQLen: 1000,
  promiscuity: 0,
};
const conf = (extra: Record<string, unknown>) => parseTuningConfig({ cniVersion: "1.0.0", name: "t", ...extra }, "");

describe("tuning's plan", () => {
  test("sysctl writes come first, each undone to the value read before it", () => {
    const files = [
      { file: "/proc/sys/net/ipv4/conf/eth0/arp_notify", value: "1" },
      { file: "/proc/sys/net/core/somaxconn", value: "5" },
    ];
    const before = new Map([["/proc/sys/net/ipv4/conf/eth0/arp_notify", "0"]]);
    const plan = planTuning(conf({}), NS, files, before, undefined, undefined);
    expect(plan.sysctls).toEqual([
      {
        op: { op: "sysctl.set", ns: NS, key: "net.ipv4.conf.eth0.arp_notify", value: "1" },
        undo: { op: "sysctl.set", ns: NS, key: "net.ipv4.conf.eth0.arp_notify", value: "0" },
      },
      { op: { op: "sysctl.set", ns: NS, key: "net.core.somaxconn", value: "5" } },
    ]);
    expect(plan.backup).toBeUndefined();
    expect(plan.link).toEqual([]);
  });

  test("link changes follow the reference's order (MAC, promisc, MTU, allmulti, queue length), each with its undo and backup field", () => {
    const c = conf({ mac: "02:00:00:00:00:AB", promisc: true, mtu: 1400, allmulti: true, txQLen: 5 });
    const plan = planTuning(c, NS, [], new Map(), LINK, "02:00:00:00:00:ab");
    const set = (f: Omit<LinkSet, "op" | "ns" | "name">): LinkSet => ({ op: "link.set", ns: NS, name: "eth0", ...f });
    expect(plan.link).toEqual([
      { op: set({ mac: "02:00:00:00:00:ab" }), undo: set({ mac: "02:00:00:00:10:01" }) },
      { op: set({ promisc: true }), undo: set({ promisc: false }) },
      { op: set({ mtu: 1400 }), undo: set({ mtu: 1500 }) },
      { op: set({ allmulti: true }), undo: set({ allmulti: false }) },
      { op: set({ txQLen: 5 }), undo: set({ txQLen: 1000 }) },
    ]);
    expect(plan.backup).toEqual({ mac: "02:00:00:00:10:01", promisc: false, mtu: 1500, allmulti: false, txQLen: 1000 });
  });

  test("promisc false and allmulti unset plan nothing for them; the backup records a bridge's promiscuity count as the reference", () => {
    expect(planTuning(conf({ promisc: false }), NS, [], new Map(), LINK, undefined).link).toEqual([]);
    const port = { ...LINK, promiscuity: 1 };
    expect(planTuning(conf({ promisc: true }), NS, [], new Map(), port, undefined).backup).toEqual({ promisc: true });
  });
});
