import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { macvlanMode, parseMacvlanConfig } from "./config.ts";

const base = { cniVersion: "1.0.0", name: "m", type: "macvlan" };

describe("parseMacvlanConfig", () => {
  test("defaults: no master (the default route's), bridge mode, mtu 0, L2 without ipam", () => {
    expect(parseMacvlanConfig(base, "")).toEqual({
      cniVersion: "1.0.0",
      name: "m",
      master: "",
      mode: "",
      mtu: 0,
      mac: undefined,
      linkInContainer: false,
      bcqueuelen: 0,
      ipamType: "",
      dns: undefined,
    });
    expect(macvlanMode("")).toBe("bridge");
  });

  test("the MAC comes from the config, then CNI_ARGS MAC, then the mac capability; the last present wins", () => {
    expect(parseMacvlanConfig({ ...base, mac: "02:00:00:00:00:01" }, "").mac).toBe("02:00:00:00:00:01");
    expect(parseMacvlanConfig({ ...base, mac: "02:00:00:00:00:01" }, "MAC=02:00:00:00:00:02").mac).toBe(
      "02:00:00:00:00:02",
    );
    expect(
      parseMacvlanConfig(
        { ...base, mac: "02:00:00:00:00:01", runtimeConfig: { mac: "02:00:00:00:00:03" } },
        "MAC=02:00:00:00:00:02",
      ).mac,
    ).toBe("02:00:00:00:00:03");
  });

  test("an unknown CNI_ARGS key fails unless IgnoreUnknown is set", () => {
    expect(() => parseMacvlanConfig(base, "FOO=1")).toThrow('ARGS: unknown args ["FOO=1"]');
    expect(parseMacvlanConfig(base, "IgnoreUnknown=1;FOO=1;MAC=02:00:00:00:00:09").mac).toBe("02:00:00:00:00:09");
  });

  test("a wrongly typed field fails with Go's unmarshal message", () => {
    expect(() => parseMacvlanConfig({ ...base, master: 3 }, "")).toThrow(
      "json: cannot unmarshal number into Go struct field NetConf.master of type string",
    );
    expect(() => parseMacvlanConfig({ ...base, linkInContainer: "yes" }, "")).toThrow("of type bool");
    expect(() => parseMacvlanConfig({ ...base, bcqueuelen: -1 }, "")).toThrow("of type uint32");
  });

  test("the reference's four modes are accepted; source and anything else fail with its message and code 7", () => {
    for (const m of ["bridge", "private", "vepa", "passthru"]) expect(macvlanMode(m)).toBe(m as never);
    for (const bad of ["source", "l2", "Bridge"]) {
      try {
        macvlanMode(bad);
        throw new Error("accepted");
      } catch (e) {
        expect(e).toBeInstanceOf(CniError);
        expect((e as CniError).msg).toBe(`unknown macvlan mode: "${bad}"`);
        expect((e as CniError).code).toBe(7);
      }
    }
  });

  test("a config DNS with any field set is kept; an empty one is none", () => {
    expect(parseMacvlanConfig({ ...base, dns: { nameservers: ["198.18.0.53"] } }, "").dns).toEqual({
      nameservers: ["198.18.0.53"],
    });
    expect(parseMacvlanConfig({ ...base, dns: {} }, "").dns).toBeUndefined();
  });
});
