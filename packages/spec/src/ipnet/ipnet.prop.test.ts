import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalCIDR, formatIP as formatBytes, parseCIDR as parseBytesCIDR, parseIP as parseBytes } from "../ip.ts";
import {
  type IP,
  compareIP,
  formatAddr,
  formatIP,
  ipFromBytes,
  ipToBytes,
  nextIP,
  parseAddr,
  parseIP,
  prevIP,
} from "./addr.ts";
import {
  type IPNet,
  contains,
  familyPrefix,
  formatCIDR,
  formatPrefix,
  lastAddress,
  networkAddress,
  parseCIDR,
  parsePrefix,
} from "./net.ts";

const RUNS = { numRuns: 5_000 };

const v4 = fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }).map((value): IP => ({ family: 4, value }));
/** Any 128-bit value, with the edges and ::ffff:0:0/96 drawn often. */
const v6Any = fc
  .oneof(
    fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
    fc.bigInt({ min: 0n, max: 0xffffffffn }).map((v) => (0xffffn << 32n) | v),
    fc.constantFrom(0n, 1n, (1n << 128n) - 1n, 0xffff00000000n, 0xffffffffffffn),
  )
  .map((value): IP => ({ family: 6, value }));
const v6 = v6Any.filter((ip) => ip.value >> 32n !== 0xffffn);
const anyIP = fc.oneof(v4, v6);
const net = anyIP.chain((ip) => fc.nat(ip.family === 4 ? 32 : 128).map((prefix): IPNet => ({ ip, prefix })));

describe("ipnet properties", () => {
  test("parseIP reads back every address formatIP prints", () => {
    fc.assert(
      fc.property(anyIP, (ip) => expect(parseIP(formatIP(ip))).toEqual(ip)),
      RUNS,
    );
  });

  test("parseAddr reads back every address formatAddr prints, IPv4-mapped ones staying IPv6", () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6Any), (ip) => expect(parseAddr(formatAddr(ip))).toEqual(ip)),
      RUNS,
    );
  });

  test("parseIP and formatIP agree with the byte-level Go rules on any text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended(), fc.string()), (text) => {
        const bytes = parseBytes(text);
        const ip = parseIP(text);
        expect(ip === undefined).toBe(bytes === undefined);
        if (ip !== undefined && bytes !== undefined) {
          expect(formatIP(ip)).toBe(formatBytes(bytes));
          expect([...ipToBytes(ip)]).toEqual([...bytes]);
          expect(parseAddr(text)?.family).toBe(text.includes(":") ? 6 : 4);
        }
      }),
      RUNS,
    );
  });

  test("ipFromBytes and ipToBytes are inverse on every 16 bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        expect([...ipToBytes(ipFromBytes(bytes))]).toEqual([...bytes]);
        expect([...ipToBytes(ipFromBytes(bytes, 6))]).toEqual([...bytes]);
      }),
      RUNS,
    );
  });

  test("formatCIDR prints what the byte-level formatCIDR prints for any parsed CIDR", () => {
    const cidrText = fc.tuple(fc.oneof(fc.ipV4(), fc.ipV6()), fc.nat(140)).map(([a, p]) => `${a}/${p}`);
    fc.assert(
      fc.property(cidrText, (text) => {
        const parsed = parseCIDR(text);
        const bytes = parseBytesCIDR(text);
        expect(parsed === undefined).toBe(bytes === undefined);
        if (parsed !== undefined) expect(formatCIDR(parsed)).toBe(canonicalCIDR(text)!);
      }),
      RUNS,
    );
  });

  test("parsePrefix reads back every network formatPrefix prints", () => {
    const anyNet = fc
      .oneof(v4, v6Any)
      .chain((ip) => fc.nat(ip.family === 4 ? 32 : 128).map((prefix): IPNet => ({ ip, prefix })));
    fc.assert(
      fc.property(anyNet, (n) => {
        const back = parsePrefix(formatPrefix(n));
        expect(back?.ip).toEqual(n.ip);
        expect(back?.prefix).toBe(n.prefix);
      }),
      RUNS,
    );
  });

  test("nextIP and prevIP are inverse and move by one in order", () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6Any), (ip) => {
        const next = nextIP(ip);
        if (next !== undefined) {
          expect(prevIP(next)).toEqual(ip);
          expect(compareIP(ip, next)).toBeLessThan(0);
        } else expect(ip.value).toBe((1n << BigInt(ip.family === 4 ? 32 : 128)) - 1n);
        const prev = prevIP(ip);
        if (prev !== undefined) expect(nextIP(prev)).toEqual(ip);
        else expect(ip.value).toBe(0n);
      }),
      RUNS,
    );
  });

  test("a network contains exactly the addresses from its network address to its last", () => {
    fc.assert(
      fc.property(net, anyIP, (n, ip) => {
        const first = networkAddress(n);
        const last = lastAddress(n);
        expect(contains(n, first)).toBe(true);
        expect(contains(n, last)).toBe(true);
        const inside = ip.family === n.ip.family && compareIP(first, ip) <= 0 && compareIP(ip, last) <= 0;
        expect(contains(n, ip)).toBe(inside);
        expect(last.value - first.value + 1n).toBe(1n << BigInt((n.ip.family === 4 ? 32 : 128) - familyPrefix(n)));
      }),
      RUNS,
    );
  });
});
