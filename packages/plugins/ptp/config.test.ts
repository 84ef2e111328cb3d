import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { parsePtpConfig, validateForAdd } from "./config.ts";

describe("parsePtpConfig", () => {
  test("reads mtu, ipam type and dns, ignoring unknown keys", () => {
    const c = parsePtpConfig({
      cniVersion: "0.4.0",
      name: "p",
      type: "ptp",
      mtu: 1400,
      ipam: { type: "host-local", subnet: "198.18.0.0/24" },
      dns: { nameservers: ["198.18.0.1"] },
      other: 1,
    });
    expect(c).toEqual({
      cniVersion: "0.4.0",
      name: "p",
      ipMasq: false,
      ipMasqBackend: undefined,
      mtu: 1400,
      ipamType: "host-local",
      dns: { nameservers: ["198.18.0.1"] },
    });
  });

  test("a wrongly typed mtu fails with Go's unmarshal message", () => {
    expect(() => parsePtpConfig({ name: "p", mtu: 1.5 })).toThrow(
      "json: cannot unmarshal number 1.5 into Go struct field NetConf.mtu of type int",
    );
    expect(() => parsePtpConfig({ name: "p", ipam: { type: 3 } })).toThrow(
      "Go struct field IPAM.ipam.type of type string",
    );
  });

  test("ipMasq is accepted with either backend or none (H-3)", () => {
    for (const b of [undefined, null, "iptables", "nftables"])
      expect(() => validateForAdd(parsePtpConfig({ name: "p", ipMasq: true, ipMasqBackend: b }))).not.toThrow();
  });

  test("an unknown ipMasqBackend fails with code 7 and the reference's message, only when masquerading", () => {
    try {
      validateForAdd(parsePtpConfig({ name: "p", ipMasq: true, ipMasqBackend: "nft" }));
      throw new Error("not refused");
    } catch (e) {
      expect(e).toBeInstanceOf(CniError);
      expect((e as CniError).code).toBe(7);
      expect((e as CniError).msg).toBe('unknown ipmasq backend "nft"');
    }
    expect(() => validateForAdd(parsePtpConfig({ name: "p", ipMasq: false, ipMasqBackend: "nft" }))).not.toThrow();
  });
});
