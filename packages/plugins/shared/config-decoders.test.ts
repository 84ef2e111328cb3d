import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { DECODED_TYPES, decodePluginConfig } from "./config-decoders.ts";

const bytes = (x: unknown) => new TextEncoder().encode(typeof x === "string" ? x : JSON.stringify(x));

describe("each plugin's config decoding for the fuzzer", () => {
  test("covers every plugin we carry but portmap (async) and the shim", () => {
    expect([...DECODED_TYPES].sort()).toEqual([
      "bandwidth",
      "bridge",
      "dhcp",
      "dummy",
      "firewall",
      "host-device",
      "host-local",
      "ipvlan",
      "loopback",
      "macvlan",
      "ptp",
      "sbr",
      "static",
      "tap",
      "tuning",
      "vlan",
      "vrf",
    ]);
  });

  test("a valid bridge config decodes with the plugin's defaults", () => {
    const conf = decodePluginConfig("bridge", bytes({ cniVersion: "1.0.0", name: "n", type: "bridge" })) as {
      bridge: string;
    };
    expect(conf.bridge).toBe("cni0");
  });

  test("the skel's steps come first: bad JSON is code 6, a version the plugin lacks code 1 (§1.11)", () => {
    const code = (type: string, stdin: string) => {
      try {
        decodePluginConfig(type, bytes(stdin));
        return 0;
      } catch (e) {
        return e instanceof CniError ? e.code : -1;
      }
    };
    expect(code("bridge", "{")).toBe(6);
    expect(code("firewall", '{"cniVersion":"0.3.1","name":"n","type":"firewall"}')).toBe(1);
    expect(code("bridge", '{"cniVersion":"1.0.0","name":"n","type":"bridge","mtu":"x"}')).toBe(7);
  });
});
