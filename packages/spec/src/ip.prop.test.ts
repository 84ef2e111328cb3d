import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ipv4Bytes, ipv6Bytes } from "./arbitraries.ts";
import { canonicalCIDR, canonicalIP, formatIP, parseIP } from "./ip.ts";

const RUNS = { numRuns: 10_000 };

/** The full, uncompressed, upper-case text of 16 bytes: a non-canonical spelling. */
function longForm(ip: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2)
    groups.push((((ip[i] ?? 0) << 8) | (ip[i + 1] ?? 0)).toString(16).toUpperCase().padStart(4, "0"));
  return groups.join(":");
}

describe("IP properties", () => {
  test("parseIP reads back exactly the bytes formatIP printed", () => {
    fc.assert(
      fc.property(fc.oneof(ipv4Bytes, ipv6Bytes), (ip) => {
        expect([...(parseIP(formatIP(ip)) ?? [])]).toEqual([...ip]);
      }),
      RUNS,
    );
  });

  test("formatIP compresses IPv6 like the WHATWG URL serializer (same RFC 5952 rule as Go)", () => {
    fc.assert(
      fc.property(ipv6Bytes, (ip) => {
        expect(`[${formatIP(ip)}]`).toBe(new URL(`http://[${longForm(ip)}]/`).hostname);
      }),
      RUNS,
    );
  });

  test("canonicalIP of any spelling of an address is its canonical text", () => {
    fc.assert(
      fc.property(ipv6Bytes, (ip) => {
        expect(canonicalIP(longForm(ip))).toBe(formatIP(ip));
      }),
      RUNS,
    );
  });

  test("canonicalIP and canonicalCIDR are idempotent and never throw on any string", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.ipV4(), fc.ipV6(), fc.ipV4Extended()),
        fc.nat(140),
        (s, prefix) => {
          const ip = canonicalIP(s);
          if (ip !== undefined) expect(canonicalIP(ip)).toBe(ip);
          const cidr = canonicalCIDR(`${s}/${prefix}`);
          if (cidr !== undefined) expect(canonicalCIDR(cidr)).toBe(cidr);
        },
      ),
      RUNS,
    );
  });

  test("canonicalIP accepts exactly the dotted quads without leading zeros", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[0-9]{1,4}$/), { minLength: 4, maxLength: 4 }), (parts) => {
        const valid = parts.every((p) => /^(0|[1-9][0-9]*)$/.test(p) && Number(p) <= 255);
        expect(canonicalIP(parts.join(".")) !== undefined).toBe(valid);
      }),
      RUNS,
    );
  });
});
