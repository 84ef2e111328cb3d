import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { ipConfigsOf, parseSbrConfig, staticGateways } from "./config.ts";

const base = { cniVersion: "1.0.0", name: "n", type: "sbr" };
const err = (f: () => unknown): CniError | Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure");
};

describe("sbr's config", () => {
  test("table, gateways and addSourceHints are read; null means unset", () => {
    expect(parseSbrConfig({ ...base, table: 500, gateways: ["198.18.0.1"], addSourceHints: true })).toMatchObject({
      table: 500,
      gateways: ["198.18.0.1"],
      addSourceHints: true,
      prevResult: undefined,
    });
    expect(parseSbrConfig({ ...base, table: null })).toMatchObject({
      table: undefined,
      gateways: [],
      addSourceHints: false,
    });
  });

  test("a wrongly typed key is Go's unmarshal error under the reference's prefix, code 7", () => {
    const e = err(() => parseSbrConfig({ ...base, table: "100" })) as CniError;
    expect(e.code).toBe(7);
    expect(e.msg).toBe(
      "failed to parse network configuration: json: cannot unmarshal string into Go struct field PluginConf.table of type int",
    );
  });

  test("the interface's addresses: unindexed ones, out-of-range ones and those of ifName", () => {
    const prev = parseSbrConfig({
      ...base,
      prevResult: {
        cniVersion: "1.0.0",
        interfaces: [{ name: "eth0" }, { name: "eth1" }],
        ips: [
          { address: "198.18.0.5/24", interface: 0 },
          { address: "198.18.1.5/24", interface: 1 },
          { address: "198.18.2.5/24" },
          { address: "198.18.3.5/24", interface: 7 },
        ],
      },
    }).prevResult!;
    expect(ipConfigsOf(prev, "eth0").map((c) => c.address)).toEqual([
      "198.18.0.5/24",
      "198.18.2.5/24",
      "198.18.3.5/24",
    ]);
    expect((err(() => ipConfigsOf({ cniVersion: "1.0.0" }, "eth0")) as CniError).msg).toBe(
      "No IP addresses supplied on interface: eth0",
    );
  });

  test("static gateways: at most one per family, each a valid IP, with the reference's messages", () => {
    expect(err(() => staticGateways(["198.18.0.1", "2001:db8::1", "198.18.0.2"])).message).toBe(
      "gateways list cannot contain more than 2 entries (one IPv4, one IPv6)",
    );
    expect(err(() => staticGateways(["nope"])).message).toBe("invalid static gateway IP address: nope");
    expect(err(() => staticGateways(["198.18.0.1", "198.18.0.2"])).message).toBe(
      "gateways list contains multiple IPv4 addresses: 198.18.0.1 and 198.18.0.2",
    );
    expect(Object.keys(staticGateways(["2001:db8::1", "198.18.0.1"])).sort()).toEqual(["v4", "v6"]);
  });
});
