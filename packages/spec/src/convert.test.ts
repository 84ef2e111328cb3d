import { describe, expect, test } from "bun:test";
import { convertResult } from "./convert.ts";
import { CniError, ErrorCode } from "./error.ts";
import { parseResult } from "./parse.ts";
import { resultToJSON } from "./serialize.ts";
import type { Result, Result020, Result040, Result100 } from "./types.ts";
import { VERSIONS } from "./version.ts";

function errorOf(fn: () => unknown): CniError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error("expected a CniError");
}

const DNS = { nameservers: ["10.1.0.1"], domain: "example.org", search: ["a.example.org"], options: ["ndots:2"] };

const r020: Result020 = {
  cniVersion: "0.2.0",
  ip4: { ip: "10.1.0.5/16", gateway: "10.1.0.1", routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1", mtu: 1400 }] },
  ip6: { ip: "fd00::5/64", gateway: "fd00::1", routes: [{ dst: "::/0" }] },
  dns: DNS,
};

const r040: Result040 = {
  cniVersion: "0.4.0",
  interfaces: [
    { name: "cni0", mac: "aa:bb:cc:dd:ee:00" },
    { name: "eth0", mac: "aa:bb:cc:dd:ee:ff", sandbox: "/var/run/netns/x" },
  ],
  ips: [
    { version: "4", interface: 1, address: "10.1.0.5/16", gateway: "10.1.0.1" },
    { version: "4", interface: 1, address: "10.2.0.5/16" },
    { version: "6", interface: 0, address: "fd00::5/64", gateway: "fd00::1" },
  ],
  routes: [
    { dst: "0.0.0.0/0", gw: "10.1.0.1", mtu: 1400, table: 0 },
    { dst: "::/0", gw: "fd00::1", scope: 0 },
  ],
  dns: DNS,
};

const r110: Result100 = {
  cniVersion: "1.1.0",
  interfaces: [
    {
      name: "eth0",
      mac: "aa:bb:cc:dd:ee:ff",
      mtu: 1500,
      sandbox: "/var/run/netns/x",
      socketPath: "/run/vhost.sock",
      pciID: "0000:00:1f.0",
    },
  ],
  ips: [
    { interface: 0, address: "10.1.0.5/16", gateway: "10.1.0.1" },
    { interface: 0, address: "fd00::5/64" },
  ],
  routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1", mtu: 1400, advmss: 1360, priority: 10, table: 100, scope: 0 }],
  dns: DNS,
};

describe("convertResult follows each rule of SPEC.md §3.7", () => {
  test("0.1.0 <-> 0.2.0 changes only the label and copies ip4, ip6 and dns", () => {
    const down = convertResult(r020, "0.1.0");
    expect(down).toEqual({ ...r020, cniVersion: "0.1.0" });
    expect(convertResult(down, "0.2.0")).toEqual(r020);
    expect((down as Result020).ip4).not.toBe(r020.ip4);
  });

  test("0.2.0 -> 0.4.0 turns ip4 then ip6 into ips without interface and flattens routes", () => {
    expect(convertResult(r020, "0.4.0")).toEqual({
      cniVersion: "0.4.0",
      ips: [
        { version: "4", address: "10.1.0.5/16", gateway: "10.1.0.1" },
        { version: "6", address: "fd00::5/64", gateway: "fd00::1" },
      ],
      routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1", mtu: 1400 }, { dst: "::/0" }],
      dns: DNS,
    });
  });

  test("0.1.0 -> 0.3.0 puts ip6 first when there is no ip4", () => {
    const only6: Result020 = { cniVersion: "0.1.0", ip6: { ip: "fd00::5/64" }, dns: {} };
    expect(convertResult(only6, "0.3.0")).toEqual({
      cniVersion: "0.3.0",
      ips: [{ version: "6", address: "fd00::5/64" }],
      dns: {},
    });
  });

  test("0.2.0 -> 1.1.0 goes through 0.4.0: no version, no interfaces", () => {
    expect(convertResult(r020, "1.1.0")).toEqual({
      cniVersion: "1.1.0",
      ips: [
        { address: "10.1.0.5/16", gateway: "10.1.0.1" },
        { address: "fd00::5/64", gateway: "fd00::1" },
      ],
      routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1", mtu: 1400 }, { dst: "::/0" }],
      dns: DNS,
    });
  });

  test("0.3.0 <-> 0.3.1 <-> 0.4.0 is a deep copy with the new label", () => {
    const r031 = convertResult(r040, "0.3.1") as Result040;
    expect(r031).toEqual({ ...r040, cniVersion: "0.3.1" });
    expect(r031.ips?.[0]).not.toBe(r040.ips?.[0]);
    expect(convertResult(convertResult(r031, "0.3.0"), "0.4.0")).toEqual(r040);
  });

  test("0.4.0 -> 1.0.0 drops ips[].version and keeps the rest", () => {
    expect(convertResult(r040, "1.0.0")).toEqual({
      cniVersion: "1.0.0",
      interfaces: r040.interfaces,
      ips: [
        { interface: 1, address: "10.1.0.5/16", gateway: "10.1.0.1" },
        { interface: 1, address: "10.2.0.5/16" },
        { interface: 0, address: "fd00::5/64", gateway: "fd00::1" },
      ],
      routes: r040.routes,
      dns: DNS,
    });
  });

  test("1.1.0 -> 0.4.0 drops interface mtu, socketPath, pciID and recomputes version from the address", () => {
    expect(convertResult(r110, "0.4.0")).toEqual({
      cniVersion: "0.4.0",
      interfaces: [{ name: "eth0", mac: "aa:bb:cc:dd:ee:ff", sandbox: "/var/run/netns/x" }],
      ips: [
        { version: "4", interface: 0, address: "10.1.0.5/16", gateway: "10.1.0.1" },
        { version: "6", interface: 0, address: "fd00::5/64" },
      ],
      routes: r110.routes,
      dns: DNS,
    });
  });

  test("1.x -> 0.4.0 calls an IPv4-mapped address version 4, as Go's To4 does", () => {
    const mapped = parseResult('{"cniVersion":"1.0.0","ips":[{"address":"::ffff:10.0.0.1/120"}]}');
    expect(convertResult(mapped, "0.4.0")).toEqual({
      cniVersion: "0.4.0",
      ips: [{ version: "4", address: "10.0.0.1/24" }],
      dns: {},
    });
  });

  test("1.0.0 <-> 1.1.0 changes only the label and shares the fields", () => {
    const r100 = convertResult(r110, "1.0.0") as Result100;
    expect(r100).toEqual({ ...r110, cniVersion: "1.0.0" });
    expect(r100.routes).toEqual(r110.routes);
    expect(convertResult(r100, "1.1.0")).toEqual(r110);
  });

  test("0.4.0 -> 0.2.0 keeps the first IP of each family, address and gateway only", () => {
    expect(convertResult(r040, "0.2.0")).toEqual({
      cniVersion: "0.2.0",
      ip4: { ip: "10.1.0.5/16", gateway: "10.1.0.1", routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1" }] },
      ip6: { ip: "fd00::5/64", gateway: "fd00::1", routes: [{ dst: "::/0", gw: "fd00::1" }] },
      dns: DNS,
    });
  });

  test("0.4.0 -> 0.2.0 picks IPs by their version label, not their address", () => {
    const mislabelled: Result040 = {
      cniVersion: "0.4.0",
      ips: [
        { version: "6", address: "10.0.0.1/8" },
        { version: "x", address: "fd00::1/64" },
      ],
      dns: {},
    };
    expect(convertResult(mislabelled, "0.2.0")).toEqual({ cniVersion: "0.2.0", ip6: { ip: "10.0.0.1/8" }, dns: {} });
  });

  test("1.1.0 -> 0.1.0 goes through 0.4.0 and keeps only dst and gw of routes", () => {
    expect(convertResult(r110, "0.1.0")).toEqual({
      cniVersion: "0.1.0",
      ip4: { ip: "10.1.0.5/16", gateway: "10.1.0.1", routes: [{ dst: "0.0.0.0/0", gw: "10.1.0.1" }] },
      ip6: { ip: "fd00::5/64" },
      dns: DNS,
    });
  });

  test("converting down fails without any IPv4 or IPv6 address", () => {
    const none: Result100 = { cniVersion: "1.0.0", interfaces: [{ name: "eth0" }], routes: [{ dst: "0.0.0.0/0" }] };
    for (const to of ["0.1.0", "0.2.0"]) {
      const err = errorOf(() => convertResult(none, to));
      expect(err.msg).toBe("cannot convert: no valid IP addresses");
      expect(err.code).toBe(ErrorCode.IncompatibleCNIVersion);
    }
  });

  test("converting to the same version returns the result unchanged", () => {
    for (const r of [r020, r040, r110]) expect(convertResult(r, r.cniVersion)).toEqual(r);
  });

  test("converting to an empty version means converting to 0.1.0", () => {
    expect(convertResult(r040, "")).toEqual(convertResult(r040, "0.1.0"));
    expect(convertResult(r040, "").cniVersion).toBe("0.1.0");
  });

  test("a version outside the seven has no converter, either way", () => {
    expect(errorOf(() => convertResult(r040, "1.2.0")).msg).toBe("no converter for CNI result version 0.4.0 to 1.2.0");
    expect(errorOf(() => convertResult({ ...r040, cniVersion: "0.5.0" } as Result, "0.4.0")).msg).toBe(
      "no converter for CNI result version 0.5.0 to 0.4.0",
    );
    expect(errorOf(() => convertResult(r040, "1.2.0")).code).toBe(ErrorCode.IncompatibleCNIVersion);
  });

  test("a malformed result is a decode failure, not a crash", () => {
    const bad = { cniVersion: "0.4.0", ips: [{ version: "4", address: "nope" }] } as unknown as Result;
    expect(errorOf(() => convertResult(bad, "1.0.0")).code).toBe(ErrorCode.DecodingFailure);
    expect(errorOf(() => convertResult(null as unknown as Result, "1.0.0")).code).toBe(ErrorCode.DecodingFailure);
  });
});

describe("the CV items of §3.7", () => {
  test("CV-1: an IPv6-only result converts to 0.2.0 with ip6 only, dropping a 0.0.0.0/0 route", () => {
    const r = parseResult(
      '{"cniVersion":"1.0.0","ips":[{"address":"2001:db8::2/64","gateway":"2001:db8::1"}],"routes":[{"dst":"0.0.0.0/0","gw":"10.0.0.1"},{"dst":"::/0"}]}',
    );
    expect(convertResult(r, "0.2.0")).toEqual({
      cniVersion: "0.2.0",
      ip6: { ip: "2001:db8::2/64", gateway: "2001:db8::1", routes: [{ dst: "::/0" }] },
      dns: {},
    });
  });

  test("CV-2: IPs without interfaces convert to 1.x with no interfaces and no interface indexes", () => {
    const out = convertResult(parseResult('{"cniVersion":"0.2.0","ip4":{"ip":"10.0.0.2/8"}}'), "1.0.0");
    expect(out).toEqual({ cniVersion: "1.0.0", ips: [{ address: "10.0.0.2/8" }] });
    expect(resultToJSON(out)).not.toContain("interface");
  });

  test("CV-3: 1.1 -> 0.4 -> 1.1 loses mtu, socketPath and pciID", () => {
    const back = convertResult(convertResult(r110, "0.4.0"), "1.1.0");
    expect(back).toEqual({
      ...r110,
      interfaces: [{ name: "eth0", mac: "aa:bb:cc:dd:ee:ff", sandbox: "/var/run/netns/x" }],
    });
  });

  test("CV-3: 0.4 -> 1.1 -> 0.4 recomputes version from the address", () => {
    const labelled: Result040 = {
      cniVersion: "0.4.0",
      ips: [
        { version: "6", address: "10.0.0.1/8" },
        { version: "", address: "fd00::1/64" },
      ],
      dns: {},
    };
    expect(convertResult(convertResult(labelled, "1.1.0"), "0.4.0")).toEqual({
      cniVersion: "0.4.0",
      ips: [
        { version: "4", address: "10.0.0.1/8" },
        { version: "6", address: "fd00::1/64" },
      ],
      dns: {},
    });
  });
});

describe("every one of the 49 version pairs converts", () => {
  const sources: Record<string, Result> = {};
  for (const v of VERSIONS) {
    const base = v.startsWith("0.1") || v.startsWith("0.2") ? r020 : v.startsWith("1.") ? r110 : r040;
    sources[v] = { ...base, cniVersion: v };
  }
  for (const from of VERSIONS) {
    for (const to of VERSIONS) {
      test(`${from} -> ${to} gives a canonical ${to} result`, () => {
        const source = sources[from];
        if (source === undefined) throw new Error("no source");
        const out = convertResult(source, to);
        expect(out.cniVersion).toBe(to);
        // The output is canonical: printing and parsing it again changes nothing.
        expect(parseResult(resultToJSON(out))).toEqual(out);
      });
    }
  }
});
