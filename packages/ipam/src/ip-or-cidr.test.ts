import { describe, expect, test } from "bun:test";
import { parseIPMaybePrefix } from "./ip-or-cidr.ts";

describe("parseIPMaybePrefix", () => {
  test("reads an address with or without a prefix, keeping the host bits", () => {
    expect(parseIPMaybePrefix("198.18.0.5")).toEqual({ family: 4, value: 0xc6120005n });
    expect(parseIPMaybePrefix("198.18.0.5/24")).toEqual({ family: 4, value: 0xc6120005n });
    expect(parseIPMaybePrefix("2001:db8::5/64")).toEqual({ family: 6, value: (0x20010db8n << 96n) | 5n });
  });

  test("rejects a bad address or a bad prefix", () => {
    for (const bad of ["", "198.18.0", "198.18.0.5/33", "198.18.0.5/", "010.0.0.1"])
      expect(parseIPMaybePrefix(bad)).toBeUndefined();
  });
});
