import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ClientSettings, type Transport, requestLease } from "./client.ts";
import { clientIdOption, leaseResult, prepareOptions } from "./options.ts";
import {
  FLAG_BROADCAST,
  MessageType,
  Opt,
  decodeMessage,
  encodeMessage,
  ipString,
  messageType,
  optIPs,
  optU32,
} from "./packet.ts";

const fixture = (name: string): Uint8Array =>
  new Uint8Array(Buffer.from(readFileSync(join(import.meta.dir, "fixtures", `${name}.hex`), "utf8").trim(), "hex"));

describe("the DHCPv4 codec on packets captured from dnsmasq 2.90 (fixtures/capture.ts)", () => {
  test("decodeMessage reads dnsmasq's ACK: type, server id, lease times, mask, router and option 121", () => {
    const ack = decodeMessage(fixture("dnsmasq-ack"));
    expect(ack.op).toBe(2);
    expect(ack.xid).toBe(0x1234abcd);
    expect(messageType(ack)).toBe(MessageType.Ack);
    expect(ack.yiaddr).toMatch(/^198\.18\.67\.(1[0-4]\d|150)$/);
    expect(ipString(ack.options.get(Opt.ServerId) as Uint8Array)).toBe("198.18.67.1");
    expect(optU32(ack, Opt.LeaseTime)).toBe(120);
    expect(optU32(ack, Opt.RenewalTime)).toBe(4);
    expect(optU32(ack, Opt.RebindingTime)).toBe(7);
    expect(optIPs(ack, Opt.Router)).toEqual(["198.18.67.1"]);
  });

  test("leaseResult prefers option 121's routes over the router, as RFC 3442 and the reference", () => {
    const ack = decodeMessage(fixture("dnsmasq-ack"));
    const r = leaseResult(ack, 0);
    expect(r.address).toBe(`${ack.yiaddr}/24`);
    expect(r.gateway).toBe("198.18.67.1");
    expect(r.routes).toEqual([{ dst: "198.18.200.0/24", gw: "198.18.67.254" }]);
    expect(leaseResult(ack, 7).routes).toEqual([{ dst: "198.18.200.0/24", gw: "198.18.67.254", priority: 7 }]);
  });

  test("without option 121 the routes are option 33's then the default route via the router", () => {
    const ack = decodeMessage(fixture("dnsmasq-ack"));
    ack.options.delete(Opt.ClasslessRoutes);
    ack.options.set(Opt.StaticRoutes, Uint8Array.of(10, 1, 0, 0, 198, 18, 67, 2));
    expect(leaseResult(ack, 0).routes).toEqual([
      { dst: "10.1.0.0/8", gw: "198.18.67.2" },
      { dst: "0.0.0.0/0", gw: "198.18.67.1" },
    ]);
  });

  test("an ACK without a subnet mask is refused with the reference's message", () => {
    const ack = decodeMessage(fixture("dnsmasq-ack"));
    ack.options.delete(Opt.SubnetMask);
    expect(() => leaseResult(ack, 0)).toThrow("DHCP option Subnet Mask not found in DHCPACK");
  });

  test("decode then encode gives back the captured DISCOVER and REQUEST byte for byte", () => {
    for (const name of ["tscni-discover", "tscni-request", "dnsmasq-offer"]) {
      const raw = fixture(name);
      const again = encodeMessage(decodeMessage(raw));
      // dnsmasq pads after END with zeros (and may be longer than 300): compare up to END.
      expect(Buffer.from(again.subarray(0, raw.length)).toString("hex")).toBe(
        Buffer.from(raw.subarray(0, again.length)).toString("hex"),
      );
    }
  });

  test("requestLease builds the captured DISCOVER and REQUEST exactly (client id, PRL, max size, requested IP, server id)", async () => {
    const discover = decodeMessage(fixture("tscni-discover"));
    const replies = [fixture("dnsmasq-offer"), fixture("dnsmasq-ack")];
    const sent: Uint8Array[] = [];
    const t: Transport = {
      hwaddr: discover.chaddr,
      send: (p) => void sent.push(p),
      recv: async () => replies.shift(),
      linkExists: () => true,
      close: () => {},
    };
    const s: ClientSettings = {
      clientId: "fixture/net/eth0",
      options: prepareOptions("", [], [{ option: "121" }]),
      broadcast: false,
      timeoutMs: 10,
      xid: () => 0x1234abcd,
    };
    const ack = await requestLease(t, s);
    expect(messageType(ack)).toBe(MessageType.Ack);
    expect(sent.map((p) => Buffer.from(p).toString("hex"))).toEqual(
      [fixture("tscni-discover"), fixture("tscni-request")].map((p) => Buffer.from(p).toString("hex")),
    );
    const req = decodeMessage(sent[1] as Uint8Array);
    expect(req.options.get(Opt.ClientId)).toEqual(clientIdOption("fixture/net/eth0"));
    expect(ipString(req.options.get(Opt.RequestedIP) as Uint8Array)).toBe(ack.yiaddr);
    expect(req.flags & FLAG_BROADCAST).toBe(0);
  });

  test("with -broadcast the DISCOVER and REQUEST carry the broadcast flag; RELEASE never does", async () => {
    const { releaseLease } = await import("./client.ts");
    const discover = decodeMessage(fixture("tscni-discover"));
    const replies = [fixture("dnsmasq-offer"), fixture("dnsmasq-ack")];
    const sent: Uint8Array[] = [];
    const t: Transport = {
      hwaddr: discover.chaddr,
      send: (p) => void sent.push(p),
      recv: async () => replies.shift(),
      linkExists: () => true,
      close: () => {},
    };
    const s: ClientSettings = {
      clientId: "fixture/net/eth0",
      options: new Map(),
      broadcast: true,
      timeoutMs: 10,
      xid: () => 0x1234abcd,
    };
    const ack = await requestLease(t, s);
    releaseLease(t, s, ack);
    expect(sent.map((p) => decodeMessage(p).flags & FLAG_BROADCAST)).toEqual([FLAG_BROADCAST, FLAG_BROADCAST, 0]);
    const release = decodeMessage(sent[2] as Uint8Array);
    expect(messageType(release)).toBe(MessageType.Release);
    expect(release.ciaddr).toBe(ack.yiaddr);
    expect([...release.options.keys()]).toEqual([Opt.MessageType, Opt.ClientId, Opt.ServerId]);
  });

  test("a NAK fails the request with nclient4's text including the server's message", async () => {
    const offer = fixture("dnsmasq-offer");
    const nak = decodeMessage(fixture("dnsmasq-ack"));
    nak.options.set(Opt.MessageType, Uint8Array.of(MessageType.Nak));
    nak.options.set(Opt.Message, new TextEncoder().encode("wrong network"));
    const replies = [offer, encodeMessage(nak)];
    const discover = decodeMessage(fixture("tscni-discover"));
    const t: Transport = {
      hwaddr: discover.chaddr,
      send: () => {},
      recv: async () => replies.shift(),
      linkExists: () => true,
      close: () => {},
    };
    const s: ClientSettings = {
      clientId: "x",
      options: new Map(),
      broadcast: true,
      timeoutMs: 10,
      xid: () => 0x1234abcd,
    };
    await expect(requestLease(t, s)).rejects.toThrow("server rejected request with Nak (msg: wrong network)");
  });

  test("replies for another transaction or another hardware address are ignored until the wait ends", async () => {
    const discover = decodeMessage(fixture("tscni-discover"));
    const other = decodeMessage(fixture("dnsmasq-offer"));
    other.xid = 1;
    const replies = [encodeMessage(other)];
    const t: Transport = {
      hwaddr: discover.chaddr,
      send: () => {},
      recv: async () => replies.shift(),
      linkExists: () => true,
      close: () => {},
    };
    const s: ClientSettings = {
      clientId: "x",
      options: new Map(),
      broadcast: false,
      timeoutMs: 5,
      xid: () => 0x1234abcd,
    };
    await expect(requestLease(t, s)).rejects.toThrow(
      "unable to receive an offer: got an error while the discovery request: no matching response packet received",
    );
  });

  test("encodeMessage splits an option longer than 255 bytes into several (RFC 3396) and decode joins them", () => {
    const long = new Uint8Array(300).fill(7);
    const m = decodeMessage(fixture("tscni-discover"));
    m.options.set(Opt.UserClass, long);
    expect(decodeMessage(encodeMessage(m)).options.get(Opt.UserClass)).toEqual(long);
  });

  test("decodeMessage refuses a short packet and a missing magic cookie", () => {
    expect(() => decodeMessage(new Uint8Array(100))).toThrow("too short");
    const bad = fixture("dnsmasq-ack");
    bad[236] = 0;
    expect(() => decodeMessage(bad)).toThrow("magic cookie");
  });
});
