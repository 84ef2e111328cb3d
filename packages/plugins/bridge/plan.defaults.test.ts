/**
 * What a bridge ADD does when the config asks for nothing special: the port is left
 * without hairpin or isolation (the kernel's defaults), and the container interface
 * announces itself with gratuitous ARP (arp_notify=1) before it gets its addresses (§8.1
 * step 7). Each test here was written against a mutation the rest of the suite let pass
 * (issue 10): forcing hairpin on, dropping the arp_notify step.
 */
import { describe, expect, test } from "bun:test";
import { HOST, type KernelOp, type LinkInfo } from "@tscni/kernel";
import { opsOf } from "../shared/steps.ts";
import { parseBridgeConfig } from "./config.ts";
import { planBridgeAdd, type BridgeView } from "./plan.ts";

const NS = "/var/run/netns/c1";
const lo = (up: boolean): LinkInfo => ({
  index: 1,
  name: "lo",
  kind: "loopback",
  mac: "00:00:00:00:00:00",
  mtu: 65536,
  up,
  operState: "UNKNOWN",
  promisc: false,
});
const view: BridgeView = {
  hostLinks: [lo(true)],
  gatewayAddrs: [],
  containerLinks: [lo(false)],
  sysctls: { ipv4Forward: "0", ipv6Forward: "0" },
  loDisableIpv6: "0",
};

function ops(extra: Record<string, unknown> = {}): KernelOp[] {
  const conf = parseBridgeConfig(
    { cniVersion: "1.0.0", name: "net", type: "bridge", ipam: { type: "host-local" }, ...extra },
    "",
  );
  const ipam = { cniVersion: "1.1.0", ips: [{ address: "198.18.0.5/24" }] };
  return opsOf(
    planBridgeAdd({
      conf,
      netns: NS,
      ifName: "eth0",
      ipam,
      view,
      hostVeth: "veth01020304",
      gatewayPeer: "veth0a0b0c0d",
      bridgeMac: "02:00:00:00:00:aa",
    }).steps,
  );
}

describe("a bridge ADD with the default config", () => {
  test("leaves the port's hairpin and isolation off: no bridge-port op at all", () => {
    expect(ops().filter((o) => o.op === "bridge-port.set")).toEqual([]);
    expect(ops({ hairpinMode: false, portIsolation: false }).filter((o) => o.op === "bridge-port.set")).toEqual([]);
  });

  test("sets hairpin alone when only hairpinMode is asked for", () => {
    expect(ops({ hairpinMode: true }).filter((o) => o.op === "bridge-port.set")).toEqual([
      { op: "bridge-port.set", ns: HOST, name: "veth01020304", hairpin: true },
    ]);
  });

  test("sets arp_notify on the container interface before its first address (§8.1 step 7)", () => {
    const all = ops();
    const arp = all.findIndex(
      (o) => o.op === "sysctl.set" && o.ns === NS && o.key === "net.ipv4.conf.eth0.arp_notify" && o.value === "1",
    );
    const addr = all.findIndex((o) => o.op === "addr.add" && o.ns === NS);
    expect(arp).toBeGreaterThanOrEqual(0);
    expect(addr).toBeGreaterThan(arp);
  });
});
