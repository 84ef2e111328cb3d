import { describe, expect, test } from "bun:test";
import { HOST } from "../index.ts";
import { canReach, trace } from "./reachability.ts";
import { attachToBridge, enableForwarding, hostBridge, ptpLink, scenario } from "./scenario.ts";

describe("reachability on a bridge", () => {
  function bridged() {
    const s = scenario({ containers: 3 });
    const [c1, c2, c3] = s.containers as [string, string, string];
    s.kernel.applySync([
      ...hostBridge("cni0", "198.18.0.1/24"),
      ...attachToBridge("cni0", { ns: c1, hostVeth: "veth1", cidr: "198.18.0.2/24", gateway: "198.18.0.1" }),
      ...attachToBridge("cni0", { ns: c2, hostVeth: "veth2", cidr: "198.18.0.3/24", gateway: "198.18.0.1" }),
    ]);
    return { ...s, c1, c2, c3 };
  }

  test("two containers on one bridge reach each other", () => {
    const { kernel, c1, c2 } = bridged();
    expect(trace(kernel, c1, "198.18.0.3")).toEqual({ ok: true, hops: [c1, c2] });
    expect(canReach(kernel, c2, "198.18.0.2")).toBe(true);
  });

  test("a container reaches the bridge's own address and the host reaches it back", () => {
    const { kernel, c1 } = bridged();
    expect(trace(kernel, c1, "198.18.0.1")).toEqual({ ok: true, hops: [c1, HOST] });
    expect(canReach(kernel, HOST, "198.18.0.2")).toBe(true);
  });

  test("a container whose host end is down is cut off", () => {
    const { kernel, c1 } = bridged();
    kernel.applySync([{ op: "link.set", ns: HOST, name: "veth2", up: false }]);
    expect(canReach(kernel, c1, "198.18.0.3")).toBe(false);
  });

  test("two isolated ports do not reach each other but still reach the bridge", () => {
    const { kernel, c1 } = bridged();
    kernel.applySync([
      { op: "bridge-port.set", ns: HOST, name: "veth1", isolated: true },
      { op: "bridge-port.set", ns: HOST, name: "veth2", isolated: true },
    ]);
    expect(canReach(kernel, c1, "198.18.0.3")).toBe(false);
    expect(canReach(kernel, c1, "198.18.0.1")).toBe(true);
  });

  test("a container reaches its own address and loopback", () => {
    const { kernel, c1 } = bridged();
    expect(trace(kernel, c1, "198.18.0.2")).toEqual({ ok: true, hops: [c1] });
    expect(canReach(kernel, c1, "127.0.0.53")).toBe(true);
  });

  test("a container without an address cannot reach anyone", () => {
    const { kernel, c1, c3 } = bridged();
    expect(trace(kernel, c3, "198.18.0.2")).toMatchObject({
      ok: false,
      reason: 'no route to "198.18.0.2" in netns "/var/run/netns/c3"',
    });
    expect(canReach(kernel, c1, "198.18.0.9")).toBe(false);
  });

  test("an IPv6 bridge works the same way", () => {
    const s = scenario();
    const [c1, c2] = s.containers as [string, string];
    s.kernel.applySync([
      ...hostBridge("cni0", "2001:db8::1/64"),
      ...attachToBridge("cni0", { ns: c1, hostVeth: "veth1", cidr: "2001:db8::2/64" }),
      ...attachToBridge("cni0", { ns: c2, hostVeth: "veth2", cidr: "2001:db8::3/64" }),
    ]);
    expect(trace(s.kernel, c1, "2001:db8::3")).toEqual({ ok: true, hops: [c1, c2] });
  });
});

describe("reachability through a forwarding host (ptp)", () => {
  function ptp(forward: boolean) {
    const s = scenario();
    const [c1, c2] = s.containers as [string, string];
    s.kernel.applySync([
      ...ptpLink({ ns: c1, hostVeth: "veth1", cidr: "198.18.1.2/24", gateway: "198.18.1.1" }),
      ...ptpLink({ ns: c2, hostVeth: "veth2", cidr: "198.18.1.3/24", gateway: "198.18.1.1" }),
      ...(forward ? enableForwarding(HOST) : []),
    ]);
    return { ...s, c1, c2 };
  }

  test("containers with /32 routes reach each other through a forwarding host", () => {
    const { kernel, c1, c2 } = ptp(true);
    expect(trace(kernel, c1, "198.18.1.3")).toEqual({ ok: true, hops: [c1, HOST, c2] });
  });

  test("without ip_forward on the host the containers are unreachable", () => {
    const { kernel, c1 } = ptp(false);
    expect(trace(kernel, c1, "198.18.1.3")).toMatchObject({ ok: false, reason: 'netns "host" does not forward IPv4' });
    expect(canReach(kernel, c1, "198.18.1.1")).toBe(true);
  });

  test("a missing return route makes the destination unreachable", () => {
    const { kernel, c1 } = ptp(true);
    kernel.applySync([{ op: "route.del", ns: HOST, dst: "198.18.1.2/32" }]);
    expect(trace(kernel, c1, "198.18.1.3")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("no way back"),
    });
  });
});
