import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CniError } from "@tscni/spec";
import { collectVlanTrunk, normalizeMac, parseBridgeConfig, validateForAdd } from "./config.ts";

const base = { cniVersion: "1.0.0", name: "net", type: "bridge" };
const parse = (extra: Record<string, unknown>, args = "") => parseBridgeConfig({ ...base, ...extra }, args);
const errorOf = (f: () => unknown): CniError => {
  try {
    f();
  } catch (e) {
    if (e instanceof CniError) return e;
    throw e;
  }
  throw new Error("no error");
};

describe("parseBridgeConfig", () => {
  test("applies the reference's defaults", () => {
    const c = parse({});
    expect(c).toMatchObject({
      bridge: "cni0",
      isGateway: false,
      mtu: 0,
      vlan: 0,
      preserveDefaultVlan: true,
      ipamType: "",
      vlans: undefined,
      vlanTrunkSet: false,
    });
  });

  test("isDefaultGateway forces isGateway", () => {
    expect(parse({ isDefaultGateway: true }).isGateway).toBe(true);
  });

  test("null fields keep their defaults, as Go's unmarshal does", () => {
    expect(parse({ bridge: null, mtu: null, vlanTrunk: null }).bridge).toBe("cni0");
  });

  test("a wrongly typed field fails with Go's unmarshal message, code 7 (§4.2 invalid network config)", () => {
    const e = errorOf(() => parse({ mtu: "1500" }));
    // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7
    expect(e.code).toBe(7);
    expect(e.msg).toBe(
      "failed to load netconf: json: cannot unmarshal string into Go struct field NetConf.mtu of type int",
    );
    expect(errorOf(() => parse({ isGateway: "yes" })).msg).toContain("NetConf.isGateway of type bool");
  });

  test("rejects a VLAN outside 0..4094", () => {
    expect(errorOf(() => parse({ vlan: 4095 })).msg).toBe("invalid VLAN ID 4095 (must be between 0 and 4094)");
    expect(errorOf(() => parse({ vlan: -1 })).msg).toBe("invalid VLAN ID -1 (must be between 0 and 4094)");
  });

  test("the MAC comes from CNI_ARGS, then args.cni.mac, then runtimeConfig.mac", () => {
    expect(parse({}, "MAC=0a:00:00:00:00:01").mac).toBe("0a:00:00:00:00:01");
    expect(parse({ args: { cni: { mac: "0a:00:00:00:00:02" } } }, "MAC=0a:00:00:00:00:01").mac).toBe(
      "0a:00:00:00:00:02",
    );
    expect(
      parse(
        { args: { cni: { mac: "0a:00:00:00:00:02" } }, runtimeConfig: { mac: "0a:00:00:00:00:03" } },
        "MAC=0a:00:00:00:00:01",
      ).mac,
    ).toBe("0a:00:00:00:00:03");
  });

  test("unknown CNI_ARGS fail unless IgnoreUnknown (CA-3, CA-6)", () => {
    expect(() => parse({}, "FOO=1")).toThrow('ARGS: unknown args ["FOO=1"]');
    expect(parse({}, "IgnoreUnknown=1;FOO=1").mac).toBeUndefined();
  });

  test("the DNS is kept only when a field is set", () => {
    expect(parse({ dns: {} }).dns).toBeUndefined();
    expect(parse({ dns: { search: ["a"] } }).dns).toEqual({ search: ["a"] });
  });
});

describe("collectVlanTrunk", () => {
  test("collects ids and ranges, sorted and distinct", () => {
    expect(collectVlanTrunk([{ id: 7 }, { minID: 3, maxID: 5 }, { id: 4 }])).toEqual([3, 4, 5, 7]);
    expect(collectVlanTrunk([])).toBeUndefined();
  });

  test("fails with the reference's messages", () => {
    expect(() => collectVlanTrunk([{ minID: 0, maxID: 5 }])).toThrow("incorrect trunk minID parameter");
    expect(() => collectVlanTrunk([{ minID: 1, maxID: 4095 }])).toThrow("incorrect trunk maxID parameter");
    expect(() => collectVlanTrunk([{ minID: 6, maxID: 5 }])).toThrow("minID is greater than maxID in trunk parameter");
    expect(() => collectVlanTrunk([{ maxID: 5 }])).toThrow(
      "minID and maxID should be configured simultaneously, minID is missing",
    );
    expect(() => collectVlanTrunk([{ minID: 5 }])).toThrow(
      "minID and maxID should be configured simultaneously, maxID is missing",
    );
    expect(() => collectVlanTrunk([{ id: 0 }])).toThrow("incorrect trunk id parameter");
  });

  test("every valid trunk yields ids within 1..4094 and covers each item", () => {
    const item = fc.oneof(
      fc.record({ id: fc.integer({ min: 1, max: 4094 }) }),
      fc
        .integer({ min: 1, max: 4094 })
        .chain((min) =>
          fc.record({ minID: fc.constant(min), maxID: fc.integer({ min, max: Math.min(4094, min + 20) }) }),
        ),
    );
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 6 }), (items) => {
        const ids = collectVlanTrunk(items) ?? [];
        expect(ids.every((id, i) => id >= 1 && id <= 4094 && (i === 0 || ids[i - 1]! < id))).toBe(true);
        for (const it of items) expect(ids).toContain("id" in it ? it.id : it.minID);
      }),
    );
  });
});

describe("validateForAdd", () => {
  test("refuses IPAM with disableContainerInterface, and hairpin with promisc", () => {
    expect(() => validateForAdd(parse({ ipam: { type: "host-local" }, disableContainerInterface: true }))).toThrow(
      "cannot use IPAM when DisableContainerInterface flag is set",
    );
    // v1.1.1 (Debian) differs: its message ends with a period; SPEC §8.1 follows upstream main
    expect(errorOf(() => validateForAdd(parse({ hairpinMode: true, promiscMode: true }))).msg).toBe(
      "cannot set hairpin mode and promiscuous mode at the same time",
    );
  });

  test("accepts ipMasq with either backend or none, and macspoofchk (served by nftables, spoofcheck.ts)", () => {
    for (const b of [undefined, "iptables", "nftables"])
      expect(() => validateForAdd(parse({ ipMasq: true, ipMasqBackend: b }))).not.toThrow();
    expect(() => validateForAdd(parse({ macspoofchk: true }))).not.toThrow();
  });

  test("refuses an unknown ipMasqBackend with code 7 and the reference's message when masquerading (H-3)", () => {
    const e = errorOf(() => validateForAdd(parse({ ipMasq: true, ipMasqBackend: "" })));
    expect([e.code, e.msg]).toEqual([7, 'unknown ipmasq backend ""']);
    expect(() => validateForAdd(parse({ ipMasqBackend: "bogus" }))).not.toThrow();
  });

  test("refuses a malformed MAC before anything runs", () => {
    expect(() => validateForAdd(parse({ runtimeConfig: { mac: "zz" } }))).toThrow(
      "failed to make veth pair: address zz: invalid MAC address",
    );
  });
});

describe("normalizeMac", () => {
  test("accepts colon and dash forms, lower-cases them, rejects mixed separators", () => {
    expect(normalizeMac("0A-0B-0C-0D-0E-0F")).toBe("0a:0b:0c:0d:0e:0f");
    expect(normalizeMac("0a:0b-0c:0d:0e:0f")).toBeUndefined();
    expect(normalizeMac("0a:0b:0c:0d:0e")).toBeUndefined();
  });
});
