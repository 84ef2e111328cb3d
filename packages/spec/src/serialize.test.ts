import { describe, expect, test } from "bun:test";
import { CniError } from "./error.ts";
import { goJSON, resultToJSON, resultToWire } from "./serialize.ts";
import type { Result } from "./types.ts";

describe("resultToJSON prints like the Go library (R-3)", () => {
  test("output is indented by 4 spaces with no trailing newline", () => {
    expect(resultToJSON({ cniVersion: "0.2.0", dns: {} })).toBe('{\n    "cniVersion": "0.2.0",\n    "dns": {}\n}');
  });

  test("0.1.0/0.2.0 always write dns, even {}, and omit an absent ip4/ip6 (R02-2)", () => {
    expect(resultToWire({ cniVersion: "0.1.0", ip6: { ip: "fd00::5/64", routes: [] }, dns: {} })).toEqual({
      cniVersion: "0.1.0",
      ip6: { ip: "fd00::5/64" },
      dns: {},
    });
  });

  test("0.4.0 writes version always, interface 0, dns {}, and omits empty lists (R04-2, R04-4)", () => {
    const text = resultToJSON({
      cniVersion: "0.4.0",
      interfaces: [],
      ips: [{ version: "", interface: 0, address: "10.0.0.2/8" }],
      routes: [],
      dns: {},
    });
    expect(JSON.parse(text)).toEqual({
      cniVersion: "0.4.0",
      ips: [{ version: "", interface: 0, address: "10.0.0.2/8" }],
      dns: {},
    });
    // Go's struct field order: version, interface, address, gateway.
    expect(text.indexOf('"version"')).toBeLessThan(text.indexOf('"interface"'));
    expect(text.indexOf('"interface"')).toBeLessThan(text.indexOf('"address"'));
  });

  test("routes write table and scope when set, even 0, and omit zero mtu, advmss and priority (§3.4)", () => {
    const wire = resultToWire({
      cniVersion: "0.4.0",
      routes: [{ dst: "::/0", mtu: 0, advmss: 0, priority: 0, table: 0, scope: 0 }],
      dns: {},
    });
    expect(wire.routes).toEqual([{ dst: "::/0", table: 0, scope: 0 }]);
  });

  test("1.x omits an empty dns and empty interface fields, and sorts keys as Go's map round trip does", () => {
    const text = resultToJSON({
      cniVersion: "1.1.0",
      interfaces: [{ name: "eth0", mac: "", mtu: 0, socketPath: "/s" }],
      ips: [{ interface: 0, address: "10.0.0.2/8", gateway: "10.0.0.1" }],
      dns: {},
    });
    expect(text).toBe(
      [
        "{",
        '    "cniVersion": "1.1.0",',
        '    "interfaces": [',
        "        {",
        '            "name": "eth0",',
        '            "socketPath": "/s"',
        "        }",
        "    ],",
        '    "ips": [',
        "        {",
        '            "address": "10.0.0.2/8",',
        '            "gateway": "10.0.0.1",',
        '            "interface": 0',
        "        }",
        "    ]",
        "}",
      ].join("\n"),
    );
  });

  test("a 1.x dns with content is written", () => {
    expect(resultToWire({ cniVersion: "1.0.0", dns: { domain: "d" } }).dns).toEqual({ domain: "d" });
  });

  test("strings escape <, >, &, U+2028 and U+2029 as Go's encoder does", () => {
    expect(goJSON({ a: "<b>&\u2028\u2029" })).toBe('{\n    "a": "\\u003cb\\u003e\\u0026\\u2028\\u2029"\n}');
    expect(JSON.parse(goJSON({ a: "<b>&" }))).toEqual({ a: "<b>&" });
  });

  test("a result with an unknown version cannot be printed", () => {
    expect(() => resultToJSON({ cniVersion: "2.0.0" } as Result)).toThrow(CniError);
  });
});
