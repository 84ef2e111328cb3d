import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import type { CniError } from "@tscni/spec";
import { parseVlanConfig } from "./config.ts";
import { vlanCreateOp } from "./plan.ts";

const base = { cniVersion: "1.0.0", name: "v", type: "vlan", master: "eth9" };
const refused = (config: unknown): CniError => {
  try {
    parseVlanConfig(config);
  } catch (e) {
    return e as CniError;
  }
  throw new Error("accepted");
};

describe("the vlan config", () => {
  test("the master is required, with the reference's message and code 7", () => {
    const e = refused({ ...base, master: "" });
    expect(e.msg).toBe('"master" field is required. It specifies the host interface name to create the VLAN for');
    expect(e.code).toBe(7);
  });

  test("vlanId must be within 0..4094, with the reference's message (which says 4095)", () => {
    expect(refused({ ...base, vlanId: 4095 }).msg).toBe("invalid VLAN ID 4095 (must be between 0 and 4095 inclusive)");
    expect(refused({ ...base, vlanId: -1 }).msg).toBe("invalid VLAN ID -1 (must be between 0 and 4095 inclusive)");
    expect(parseVlanConfig({ ...base, vlanId: 4094 }).vlanId).toBe(4094);
    expect(parseVlanConfig(base).vlanId).toBe(0);
  });

  test("the create op makes a VLAN of the master in the container under the temporary name", () => {
    expect(vlanCreateOp(parseVlanConfig({ ...base, vlanId: 7, mtu: 1400 }), "/var/run/netns/c1", "t0")).toEqual({
      op: "vlan.add",
      ns: HOST,
      name: "t0",
      parent: "eth9",
      id: 7,
      mtu: 1400,
      into: "/var/run/netns/c1",
    });
  });
});
