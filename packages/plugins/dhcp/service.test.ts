import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Transport } from "./client.ts";
import { FakeClock } from "./fake-clock.testing.ts";
import { type DhcpMessage, MessageType, Opt, decodeMessage, encodeMessage, ipBytes, messageType } from "./packet.ts";
import { DhcpService, type OpenTransport } from "./service.ts";
import type { DaemonRequest } from "./wire.ts";

/** An in-memory DHCP server behind a transport: OFFER/ACK for 198.18.40.10, 100 s leases. */
function fakeServer(): { open: OpenTransport; seen: string[] } {
  const seen: string[] = [];
  const open: OpenTransport = async (netns, ifName) => {
    const queue: Uint8Array[] = [];
    const t: Transport & { setUp(up: boolean): void } = {
      hwaddr: Uint8Array.of(2, 0, 0, 0, 0, 1),
      send(p) {
        const m = decodeMessage(p);
        const type = messageType(m);
        seen.push(
          `${netns}/${ifName} ${Object.keys(MessageType).find((k) => MessageType[k as keyof typeof MessageType] === type)}`,
        );
        if (type === MessageType.Release) return;
        const reply: DhcpMessage = { ...m, op: 2, yiaddr: "198.18.40.10", options: new Map() };
        reply.options.set(
          Opt.MessageType,
          Uint8Array.of(type === MessageType.Discover ? MessageType.Offer : MessageType.Ack),
        );
        reply.options.set(Opt.ServerId, ipBytes("198.18.40.1"));
        reply.options.set(Opt.SubnetMask, ipBytes("255.255.255.0"));
        reply.options.set(Opt.Router, ipBytes("198.18.40.1"));
        reply.options.set(Opt.LeaseTime, Uint8Array.of(0, 0, 0, 100));
        queue.push(encodeMessage(reply));
      },
      recv: async () => queue.shift(),
      linkExists: () => true,
      setUp: () => {},
      close: () => {},
    };
    return t;
  };
  return { open, seen };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function service(open: OpenTransport, stateDir: string, clock = new FakeClock()): DhcpService {
  return new DhcpService({
    hostPrefix: "",
    broadcast: false,
    timeoutMs: 5,
    backoff: { resendMaxMs: 1000, resendTimeoutMs: 5000 },
    stateDir,
    open,
    clock,
    log: () => {},
  });
}

const req = (containerID: string): DaemonRequest => ({
  containerID,
  netns: "/var/run/netns/c",
  ifName: "eth0",
  args: "",
  path: "",
  stdinData: JSON.stringify({ cniVersion: "1.0.0", name: "n", ipam: { type: "dhcp", priority: 9 } }),
});

describe("the daemon's leases (DHCP.Allocate and DHCP.Release)", () => {
  test("Allocate acquires once per attachment and answers with address, gateway and prioritised routes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tscni-dhcp-svc-"));
    dirs.push(dir);
    const { open, seen } = fakeServer();
    const s = service(open, join(dir, "state"));
    const r = await s.allocate(req("c1"));
    expect(r).toEqual({
      cniVersion: "1.1.0",
      ips: [{ address: "198.18.40.10/24", gateway: "198.18.40.1" }],
      routes: [{ dst: "0.0.0.0/0", gw: "198.18.40.1", priority: 9 }],
    });
    await s.allocate(req("c1")); // a repeated ADD or a CHECK: the same lease
    expect(seen).toEqual(["/var/run/netns/c/eth0 Discover", "/var/run/netns/c/eth0 Request"]);
    expect(s.held()).toEqual(["c1/n/eth0"]);
    expect(readdirSync(join(dir, "state"))).toHaveLength(1);
    await s.release(req("c1"));
    expect(seen.at(-1)).toBe("/var/run/netns/c/eth0 Release");
    expect(s.held()).toEqual([]);
    expect(readdirSync(join(dir, "state"))).toHaveLength(0);
    await s.release(req("c1")); // nothing held: success, nothing sent
    expect(seen).toHaveLength(3);
  });

  test("a new daemon resumes the recorded leases and releases them on DEL; unreachable ones are forgotten", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tscni-dhcp-svc-"));
    dirs.push(dir);
    const state = join(dir, "state");
    const first = fakeServer();
    const a = service(first.open, state);
    await a.allocate(req("c1"));
    await a.allocate({ ...req("c2"), netns: "/var/run/netns/gone" });
    await a.shutdown();
    expect(readdirSync(state)).toHaveLength(2); // shutdown keeps the records
    const second = fakeServer();
    const open: OpenTransport = (netns, ifName) =>
      netns.endsWith("gone") ? Promise.reject(new Error("netns gone")) : second.open(netns, ifName);
    const b = service(open, state);
    expect(await b.resume()).toBe(1);
    expect(b.held()).toEqual(["c1/n/eth0"]);
    expect(readdirSync(state)).toHaveLength(1);
    await b.release(req("c1"));
    expect(second.seen).toEqual(["/var/run/netns/c/eth0 Release"]);
    expect(readdirSync(state)).toHaveLength(0);
  });

  test("a bad network config is refused with the reference's prefix", async () => {
    const { open } = fakeServer();
    const s = service(open, join(tmpdir(), "tscni-dhcp-unused"));
    await expect(s.allocate({ ...req("c1"), stdinData: "{" })).rejects.toThrow("error parsing netconf:");
  });
});
