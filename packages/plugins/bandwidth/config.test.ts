import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { parseBandwidthConfig } from "./config.ts";

const base = { cniVersion: "1.0.0", name: "bwnet", type: "bandwidth" };
const entry = { ingressRate: 8_000_000, ingressBurst: 80_000, egressRate: 16_000_000, egressBurst: 160_000 };

function error(config: unknown): CniError {
  try {
    parseBandwidthConfig(config);
  } catch (e) {
    return CniError.from(e);
  }
  throw new Error("expected the config to be refused");
}

describe("parseBandwidthConfig", () => {
  test("reads the limits from the top-level keys", () => {
    expect(parseBandwidthConfig({ ...base, ...entry }).bandwidth).toEqual(entry);
  });

  test("reads the limits from the bandwidth capability when no top-level key is given", () => {
    expect(parseBandwidthConfig({ ...base, runtimeConfig: { bandwidth: entry } }).bandwidth).toEqual(entry);
  });

  test("ignores the capability once any top-level key is present, even a null one (getBandwidth's embedded pointer)", () => {
    expect(parseBandwidthConfig({ ...base, egressRate: null, runtimeConfig: { bandwidth: entry } }).bandwidth).toEqual({
      ingressRate: 0,
      ingressBurst: 0,
      egressRate: 0,
      egressBurst: 0,
    });
    expect(
      parseBandwidthConfig({ ...base, ingressRate: 1000, ingressBurst: 100, runtimeConfig: { bandwidth: entry } })
        .bandwidth,
    ).toEqual({ ingressRate: 1000, ingressBurst: 100, egressRate: 0, egressBurst: 0 });
  });

  test("has no limits when neither the keys nor the capability are given", () => {
    expect(parseBandwidthConfig(base).bandwidth).toBeUndefined();
    expect(parseBandwidthConfig({ ...base, runtimeConfig: {} }).bandwidth).toBeUndefined();
  });

  test("matches keys case-insensitively as Go's decoder does", () => {
    expect(parseBandwidthConfig({ ...base, IngressRate: 1000, INGRESSBURST: 100 }).bandwidth).toEqual({
      ingressRate: 1000,
      ingressBurst: 100,
      egressRate: 0,
      egressBurst: 0,
    });
    expect(
      parseBandwidthConfig({ ...base, runtimeConfig: { Bandwidth: { EgressRate: 1000, egressburst: 100 } } }).bandwidth,
    ).toEqual({ ingressRate: 0, ingressBurst: 0, egressRate: 1000, egressBurst: 100 });
  });

  test("ignores unshapedSubnets and shapedSubnets, which upstream main reverted", () => {
    expect(
      parseBandwidthConfig({ ...base, ...entry, unshapedSubnets: ["198.18.0.0/16"], shapedSubnets: "not even a list" })
        .bandwidth,
    ).toEqual(entry);
  });

  test.each([
    [{ ingressRate: 1000 }, "if rate is set, burst must also be set"],
    [{ ingressBurst: 1000 }, "if burst is set, rate must also be set"],
    [{ ingressRate: 1000, ingressBurst: 1000, egressRate: 5 }, "if rate is set, burst must also be set"],
    [{ egressBurst: 7 }, "if burst is set, rate must also be set"],
    [{ egressRate: 1, egressBurst: 34_359_738_360 }, "burst cannot be more than 4GB"],
  ])("refuses %j with the reference's message", (keys, msg) => {
    expect(error({ ...base, ...keys }).msg).toBe(msg);
    expect(error({ ...base, runtimeConfig: { bandwidth: keys } }).msg).toBe(msg);
  });

  test("accepts a burst just under 4 GB", () => {
    expect(parseBandwidthConfig({ ...base, egressRate: 1, egressBurst: 34_359_738_359 }).bandwidth?.egressBurst).toBe(
      34_359_738_359,
    );
  });

  test("refuses a negative or fractional rate with Go's unmarshal message (code 7)", () => {
    const e = error({ ...base, ingressRate: -1 });
    expect(e.code).toBe(7);
    expect(e.msg).toBe(
      "failed to parse network configuration: json: cannot unmarshal number -1 into Go struct field PluginConf.ingressRate of type uint64",
    );
    expect(error({ ...base, runtimeConfig: { bandwidth: { egressBurst: 1.5 } } }).msg).toBe(
      "failed to parse network configuration: json: cannot unmarshal number 1.5 into Go struct field BandwidthEntry.runtimeConfig.bandwidth.egressBurst of type uint64",
    );
    expect(error({ ...base, egressRate: "1000" }).msg).toBe(
      "failed to parse network configuration: json: cannot unmarshal string into Go struct field PluginConf.egressRate of type uint64",
    );
  });

  test("names a number's value only when it goes into a number, as Go does", () => {
    expect(error({ ...base, runtimeConfig: 5 }).msg).toBe(
      'failed to parse network configuration: json: cannot unmarshal number into Go struct field PluginConf.runtimeConfig of type struct { Bandwidth *main.BandwidthEntry "json:\\"bandwidth,omitempty\\"" }',
    );
    expect(error({ ...base, runtimeConfig: { bandwidth: 5 } }).msg).toBe(
      "failed to parse network configuration: json: cannot unmarshal number into Go struct field .runtimeConfig.bandwidth of type main.BandwidthEntry",
    );
  });

  test("parses the previous result into the current version", () => {
    const conf = parseBandwidthConfig({
      ...base,
      cniVersion: "0.3.1",
      prevResult: {
        cniVersion: "0.3.1",
        interfaces: [{ name: "veth1" }],
        ips: [{ version: "4", address: "198.18.0.2/24" }],
      },
    });
    expect(conf.prevResult?.interfaces).toEqual([{ name: "veth1" }]);
    expect(conf.prevResult?.ips?.[0]?.address).toBe("198.18.0.2/24");
  });
});
