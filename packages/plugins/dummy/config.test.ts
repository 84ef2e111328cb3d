import { describe, expect, test } from "bun:test";
import type { CniError } from "@tscni/spec";
import { parseDummyConfig, requireIpam } from "./config.ts";

describe("the dummy config", () => {
  test("reads the IPAM type", () => {
    expect(parseDummyConfig({ cniVersion: "1.0.0", name: "d", type: "dummy", ipam: { type: "host-local" } })).toEqual({
      cniVersion: "1.0.0",
      name: "d",
      ipamType: "host-local",
    });
  });

  test("ADD and CHECK need IPAM: the reference's message with code 7", () => {
    try {
      requireIpam(parseDummyConfig({ cniVersion: "1.0.0", name: "d", type: "dummy" }));
      throw new Error("accepted");
    } catch (e) {
      expect((e as CniError).msg).toBe("dummy interface requires an IPAM configuration");
      expect((e as CniError).code).toBe(7);
    }
  });
});
