import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { describeIssues } from "./_go.ts";
import {
  IpamResult040Schema,
  IpamResult100Schema,
  Result020Schema,
  Result040Schema,
  Result100Schema,
  RouteSchema,
} from "./result.ts";

/** The first issue of a failed parse as `path: message`, or "ok". */
function failure(schema: v.GenericSchema, input: unknown): string {
  const r = v.safeParse(schema, input);
  return r.success ? "ok" : describeIssues(r.issues);
}

// The JSON examples of SPEC.md section 3, copied verbatim (comments removed).
const SPEC_3_2 = `{ "cniVersion": "0.2.0",
  "ip4": { "ip": "10.1.0.5/16", "gateway": "10.1.0.1", "routes": [ { "dst": "0.0.0.0/0", "gw": "10.1.0.1" } ] },
  "ip6": { "ip": "fd00::5/64" },
  "dns": { "nameservers": ["10.1.0.1"] } }`;
const SPEC_3_3 = `{ "cniVersion": "0.4.0",
  "interfaces": [ { "name": "eth0", "mac": "aa:bb:cc:dd:ee:ff", "sandbox": "/var/run/netns/x" } ],
  "ips": [ { "version": "4", "address": "10.1.0.5/16", "gateway": "10.1.0.1", "interface": 0 } ],
  "routes": [ { "dst": "0.0.0.0/0", "gw": "10.1.0.1" } ],
  "dns": {} }`;
const SPEC_3_5 = `{"cniVersion":"0.3.1","ips":[{"version":"4","address":"203.0.113.2/24","gateway":"203.0.113.1"}],"dns":{}}`;

describe("result schemas accept every example of SPEC.md section 3", () => {
  test("the 0.2.0 example of §3.2 parses with ip4, ip6 and dns", () => {
    expect(v.parse(Result020Schema, JSON.parse(SPEC_3_2))).toEqual({
      cniVersion: "0.2.0",
      ip4: { ip: "10.1.0.5/16", gateway: "10.1.0.1", routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1" }] },
      ip6: { ip: "fd00::5/64" },
      dns: { nameservers: ["10.1.0.1"] },
    });
  });

  test("the 0.4.0 example of §3.3 parses and keeps interface index 0", () => {
    expect(v.parse(Result040Schema, JSON.parse(SPEC_3_3))).toEqual({
      cniVersion: "0.4.0",
      interfaces: [{ name: "eth0", mac: "aa:bb:cc:dd:ee:ff", sandbox: "/var/run/netns/x" }],
      ips: [{ version: "4", address: "10.1.0.5/16", gateway: "10.1.0.1", interface: 0 }],
      routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1" }],
      dns: {},
    });
  });

  test("the host-local IPAM example of §3.5 is an abbreviated IPAM result (RI-1)", () => {
    const parsed = v.parse(IpamResult040Schema, JSON.parse(SPEC_3_5));
    expect(parsed.ips).toEqual([{ version: "4", address: "203.0.113.2/24", gateway: "203.0.113.1" }]);
    expect(failure(IpamResult040Schema, JSON.parse(SPEC_3_3))).toContain("IPAM result");
  });

  test("a 1.1.0 result with every §3.4 field parses, and an IPAM one refuses interfaces", () => {
    const full = {
      cniVersion: "1.1.0",
      interfaces: [{ name: "eth0", mac: "m", mtu: 1500, sandbox: "/x", socketPath: "/s", pciID: "0000:00:01.0" }],
      ips: [{ address: "10.0.0.2/24", gateway: "10.0.0.1", interface: 0 }],
      routes: [{ dst: "0.0.0.0/0", gw: "10.0.0.1", mtu: 1400, advmss: 1360, priority: 5, table: 100, scope: 0 }],
      dns: { nameservers: ["10.0.0.1"], domain: "d", search: ["s"], options: ["o"] },
    };
    expect(v.parse(Result100Schema, full)).toEqual(full);
    expect(failure(IpamResult100Schema, full)).toContain("IPAM result");
    expect(failure(IpamResult100Schema, { cniVersion: "1.0.0", ips: [{ address: "10.0.0.2/24" }] })).toBe("ok");
  });
});

describe("result schemas reject wrong types, naming the JSON path of the bad field", () => {
  test("a bad CIDR names ips[0].address", () => {
    expect(failure(Result040Schema, { cniVersion: "0.4.0", ips: [{ version: "4", address: "10.0.0.1/33" }] })).toBe(
      "ips[0].address: invalid CIDR address: 10.0.0.1/33",
    );
  });

  test("a number where a string belongs names the field", () => {
    expect(failure(Result100Schema, { cniVersion: "1.0.0", interfaces: [{ name: 5 }] })).toBe(
      "interfaces[0].name: cannot unmarshal number 5 into string",
    );
  });

  test("a non-integer interface index is rejected, as Go's int is", () => {
    expect(failure(Result100Schema, { ips: [{ address: "10.0.0.1/8", interface: 1.5 }] })).toBe(
      "ips[0].interface: cannot unmarshal number 1.5 into int",
    );
  });

  test("a bad gateway, a bad route gw and a missing dst are each named", () => {
    expect(failure(Result020Schema, { ip4: { ip: "10.0.0.1/8", gateway: "10.0.0.256" } })).toBe(
      "ip4.gateway: invalid IP address: 10.0.0.256",
    );
    expect(failure(Result040Schema, { routes: [{ dst: "::/0", gw: "x" }] })).toBe(
      "routes[0].gw: invalid IP address: x",
    );
    expect(failure(Result040Schema, { routes: [{ gw: "10.0.0.1" }] })).toContain("routes[0].dst: missing");
  });

  test("an array is not an object, and a list must be an array", () => {
    expect(failure(Result040Schema, { dns: [] })).toBe("dns: cannot unmarshal array into DNS");
    expect(failure(Result040Schema, { ips: {} })).toBe("ips: cannot unmarshal object into []IPConfig");
    expect(failure(Result040Schema, [])).toBe("cannot unmarshal array into Result");
  });

  test("mtu of an interface and of a route must be integers", () => {
    expect(failure(Result100Schema, { interfaces: [{ name: "e", mtu: "1500" }] })).toBe(
      "interfaces[0].mtu: cannot unmarshal string into int",
    );
    expect(failure(RouteSchema, { dst: "::/0", table: true })).toBe("table: cannot unmarshal bool into int");
  });

  test("dns lists must hold strings", () => {
    expect(failure(Result020Schema, { dns: { nameservers: [1] } })).toBe(
      "dns.nameservers[0]: cannot unmarshal number 1 into string",
    );
  });
});

describe("result schemas decode null and empty values like Go", () => {
  test("null leaves fields unset and a null list element of strings is empty", () => {
    expect(
      v.parse(Result040Schema, {
        cniVersion: null,
        interfaces: null,
        ips: [{ version: null, address: "10.0.0.1/8", gateway: null, interface: null }],
        dns: null,
      }),
    ).toEqual({ cniVersion: "", ips: [{ version: "", address: "10.0.0.1/8" }], dns: {} });
    expect(v.parse(Result020Schema, { dns: { search: [null, "a"] } }).dns).toEqual({ search: ["", "a"] });
  });

  test("an empty gateway is unset, but an empty address is an invalid CIDR", () => {
    expect(v.parse(RouteSchema, { dst: "10.0.0.0/8", gw: "" })).toEqual({ dst: "10.0.0.0/8" });
    expect(failure(RouteSchema, { dst: "" })).toBe("dst: invalid CIDR address: ");
    expect(failure(RouteSchema, { dst: null })).toBe("dst: invalid CIDR address: ");
  });

  test("zero mtu, advmss and priority are unset while zero table and scope are kept (§3.4)", () => {
    expect(v.parse(RouteSchema, { dst: "::/0", mtu: 0, advmss: 0, priority: 0, table: 0, scope: 0 })).toEqual({
      dst: "::/0",
      table: 0,
      scope: 0,
    });
  });

  test("unknown keys are ignored, as Go ignores them", () => {
    expect(
      v.parse(Result100Schema, { cniVersion: "1.0.0", ips: [{ address: "10.0.0.1/8", version: "4" }], extra: 1 }),
    ).toEqual({
      cniVersion: "1.0.0",
      ips: [{ address: "10.0.0.1/8" }],
    });
  });

  test("a 1.x result drops an empty dns while 0.x keep it as {}", () => {
    expect(v.parse(Result100Schema, { cniVersion: "1.0.0", dns: { nameservers: [] } })).toEqual({
      cniVersion: "1.0.0",
    });
    expect(v.parse(Result040Schema, { cniVersion: "0.4.0" })).toEqual({ cniVersion: "0.4.0", dns: {} });
  });
});
