import { describe, expect, test } from "bun:test";
import { isLoopbackAddress } from "./address.ts";

describe("isLoopbackAddress", () => {
  test("IPv4 127.0.0.0/8 is loopback, other IPv4 is not", () => {
    for (const a of ["127.0.0.1/8", "127.255.1.2", "127.0.0.1"]) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ["198.18.0.1/24", "10.0.0.1", "0.0.0.0", "128.0.0.1"]) expect(isLoopbackAddress(a)).toBe(false);
  });

  test("IPv6 ::1 in any spelling, and IPv4-mapped 127/8, are loopback", () => {
    for (const a of ["::1/128", "::1", "0:0:0:0:0:0:0:1", "0000::0001", "::ffff:127.0.0.1", "::ffff:7f00:1"]) {
      expect(isLoopbackAddress(a)).toBe(true);
    }
  });

  test("other IPv6 addresses are not loopback", () => {
    for (const a of ["2001:db8::1/64", "::", "fe80::1", "::2", "::ffff:198.18.0.1", "1::1"])
      expect(isLoopbackAddress(a)).toBe(false);
  });

  test("text that is not an address is not loopback", () => {
    for (const a of ["", "lo", "127.0.0", ":::1", "1:2:3:4:5:6:7:8:9", "127.0.0.01", "fe80::1%lo"])
      expect(isLoopbackAddress(a)).toBe(false);
  });
});
