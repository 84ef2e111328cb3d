import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { attrs, attrStr, attrU, MessageBuilder, messages } from "./wire.ts";
import { cidrBytes, ipBytes, ipText, macBytes, macText } from "./text.ts";

describe("MessageBuilder and messages", () => {
  test("a built message parses back to its header, fixed part and nested attributes", () => {
    const m = new MessageBuilder(16, 0x405)
      .fixed(16, (v, at) => v.setInt32(at + 4, 7, true))
      .str(3, "eth0")
      .nest(18)
      .str(1, "veth")
      .u16(2, 4094)
      .end()
      .u8(4, 1)
      .build(42);
    const [msg, ...rest] = [...messages(m, m.length)];
    expect(rest).toEqual([]);
    expect([msg?.type, msg?.flags, msg?.seq, m.length % 4]).toEqual([16, 0x405, 42, 0]);
    expect(msg?.payload.getInt32(4, true)).toBe(7);
    const a = attrs(msg!.payload, 16);
    expect(attrStr(a.get(3))).toBe("eth0");
    expect(attrU(a.get(4))).toBe(1);
    const nested = attrs(a.get(18)!);
    expect([attrStr(nested.get(1)), attrU(nested.get(2))]).toEqual(["veth", 4094]);
  });

  test("any list of u32 attributes round-trips", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 0x3fff }), fc.nat()), { maxLength: 20 }), (pairs) => {
        const b = new MessageBuilder(1, 0);
        for (const [t, n] of pairs) b.u32(t, n);
        const bytes = b.build(1);
        const got = attrs([...messages(bytes, bytes.length)][0]!.payload);
        expect(new Map([...got].map(([t, v]) => [t, attrU(v)]))).toEqual(new Map(pairs.map(([t, n]) => [t, n >>> 0])));
      }),
    );
  });

  test("a truncated datagram yields only its whole messages", () => {
    const one = new MessageBuilder(3, 0).u32(1, 5).build(1);
    const two = new Uint8Array([...one, ...one]);
    expect([...messages(two, two.length)].length).toBe(2);
    expect([...messages(two, two.length - 2)].length).toBe(1);
  });
});

describe("ipText, ipBytes, macText", () => {
  test("print IPs as inet_ntop does, IPv4-mapped and -compatible forms included", () => {
    for (const t of [
      "198.18.0.1",
      "2001:db8::1",
      "::1",
      "::",
      "::ffff:1.2.3.4",
      "::1.2.3.4",
      "fe80::a:b",
      "2001:db8::1:0:0:1",
    ]) {
      expect(ipText(ipBytes(t)!.bytes)).toBe(t);
    }
    expect(ipText(ipBytes("2001:DB8:0:0:1:0:0:1")!.bytes)).toBe("2001:db8::1:0:0:1");
  });

  test("read a CIDR's family and prefix, a bare address as a full-length prefix", () => {
    expect(cidrBytes("198.18.0.0/24")).toEqual({ family: 4, bytes: Uint8Array.of(198, 18, 0, 0), prefix: 24 });
    expect(cidrBytes("2001:db8::5")?.prefix).toBe(128);
    expect(cidrBytes("198.18.0.0/33")).toBeUndefined();
    expect(cidrBytes("nope/8")).toBeUndefined();
  });

  test("MACs round-trip in lower case", () => {
    expect(macText(macBytes("02:AB:00:0c:1:ff")!)).toBe("02:ab:00:0c:01:ff");
    expect(macBytes("02:zz")).toBeUndefined();
  });
});
