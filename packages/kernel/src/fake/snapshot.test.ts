import { describe, expect, test } from "bun:test";
import { HOST } from "../index.ts";
import { diffSnapshots } from "./diff.ts";
import { attachToBridge, hostBridge, scenario } from "./scenario.ts";

describe("snapshots", () => {
  test("a snapshot is plain data that survives a JSON round trip", () => {
    const { kernel, containers } = scenario({ containers: 1 });
    kernel.applySync([
      ...hostBridge("cni0", "198.18.0.1/24"),
      ...attachToBridge("cni0", { ns: containers[0]!, hostVeth: "veth1", cidr: "198.18.0.2/24" }),
    ]);
    const snap = kernel.snapshot(HOST);
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
    expect(snap.links.map((l) => `${l.index} ${l.name} ${l.operState}`)).toEqual([
      "1 lo UNKNOWN",
      "2 cni0 UP",
      "3 veth1 UP",
    ]);
    expect(snap.sysctls["net.ipv4.conf.veth1.arp_notify"]).toBe("0");
  });

  test("snapshots of the same history are equal and diff to nothing", () => {
    const run = () => {
      const s = scenario({ containers: 1, seed: 3 });
      s.kernel.applySync([
        ...hostBridge("cni0", "198.18.0.1/24"),
        ...attachToBridge("cni0", { ns: s.containers[0]!, hostVeth: "v1", cidr: "198.18.0.2/24" }),
      ]);
      return s.kernel.snapshot(s.containers[0]!);
    };
    expect(diffSnapshots(run(), run())).toEqual([]);
  });

  test("diffSnapshots names every changed link field, address, route and sysctl", () => {
    const { kernel, containers } = scenario({ containers: 1 });
    const c1 = containers[0]!;
    kernel.applySync(
      attachToBridge("cni0", { ns: c1, hostVeth: "veth1", cidr: "198.18.0.2/24" }).filter(
        (o) => o.ns === c1 || o.op === "veth.add",
      ),
    );
    const before = kernel.snapshot(c1);
    kernel.applySync([
      { op: "link.set", ns: c1, name: "eth0", mtu: 9000 },
      { op: "addr.del", ns: c1, dev: "eth0", cidr: "198.18.0.2/24" },
      { op: "sysctl.set", ns: c1, key: "net.ipv4.ip_forward", value: "1" },
      { op: "bridge.add", ns: c1, name: "br0" },
    ]);
    const diff = diffSnapshots(before, kernel.snapshot(c1));
    expect(diff).toContain('link "eth0": mtu 1500 -> 9000');
    expect(diff).toContain('link "br0": only in b');
    expect(diff).toContain('address "198.18.0.2/24 dev eth0": only in a');
    expect(diff).toContain('route "198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.2": only in a');
    expect(diff).toContain('sysctl "net.ipv4.ip_forward": "0" -> "1"');
    expect(diff).toContain('sysctl "net.ipv4.conf.br0.forwarding": only in b');
    expect(diff).toContain('bridge vlan "1 dev br0": only in b');
  });

  test("deleting what was added restores the namespace", () => {
    const { kernel, containers } = scenario({ containers: 1 });
    const c1 = containers[0]!;
    const before = kernel.snapshot(c1);
    kernel.applySync([
      { op: "veth.add", ns: c1, name: "eth0", peer: { name: "veth1", ns: HOST } },
      { op: "link.set", ns: c1, name: "eth0", up: true },
      { op: "addr.add", ns: c1, dev: "eth0", cidr: "198.18.0.2/24" },
    ]);
    expect(diffSnapshots(before, kernel.snapshot(c1))).not.toEqual([]);
    kernel.applySync([{ op: "link.del", ns: HOST, name: "veth1" }]);
    expect(diffSnapshots(before, kernel.snapshot(c1))).toEqual([]);
  });
});
