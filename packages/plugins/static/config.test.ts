import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { formatCIDR, formatIP } from "@tscni/spec/ipnet";
import { loadStaticConfig } from "./config.ts";

const net = (ipam: unknown, extra: Record<string, unknown> = {}) => ({
  cniVersion: "1.0.0",
  name: "n",
  ipam,
  ...extra,
});
const addrs = (config: unknown, args = "") =>
  loadStaticConfig(config, args).addresses.map(
    (a) => `${formatCIDR(a.address)}${a.gateway === undefined ? "" : ` via ${formatIP(a.gateway)}`}`,
  );

function failure(config: unknown, args = ""): { code: number; msg: string } {
  try {
    loadStaticConfig(config, args);
  } catch (err) {
    const e = CniError.from(err);
    return { code: e.code, msg: e.msg };
  }
  throw new Error("no error");
}

describe("static's addresses and their precedence (issue 12 item 4)", () => {
  test("config addresses keep their host bits and gateways, in order", () => {
    expect(
      addrs(net({ addresses: [{ address: "198.18.0.5/24", gateway: "198.18.0.1" }, { address: "2001:db8::5/64" }] })),
    ).toEqual(["198.18.0.5/24 via 198.18.0.1", "2001:db8::5/64"]);
  });

  test("CNI_ARGS IP= is appended after the config's and GATEWAY= lands on every address containing it", () => {
    const c = net({ addresses: [{ address: "198.18.1.5/24" }] });
    expect(addrs(c, "IP=198.18.0.5/24, 2001:db8::5/64;GATEWAY=198.18.0.1,2001:db8::1")).toEqual([
      "198.18.1.5/24",
      "198.18.0.5/24 via 198.18.0.1",
      "2001:db8::5/64 via 2001:db8::1",
    ]);
  });

  test("args.cni.ips replaces config and CNI_ARGS addresses; runtimeConfig.ips (the ips capability) replaces those in turn", () => {
    const c = net(
      { addresses: [{ address: "198.18.1.5/24", gateway: "198.18.1.1" }] },
      { args: { cni: { ips: ["198.18.2.5/24"] } } },
    );
    expect(addrs(c, "IP=198.18.0.5/24")).toEqual(["198.18.2.5/24"]);
    expect(addrs({ ...c, runtimeConfig: { ips: ["198.18.3.5/24", "2001:db8::3/64"] } })).toEqual([
      "198.18.3.5/24",
      "2001:db8::3/64",
    ]);
  });

  test("empty ips lists change nothing", () => {
    expect(
      addrs(
        net({ addresses: [{ address: "198.18.1.5/24" }] }, { args: { cni: { ips: [] } }, runtimeConfig: { ips: [] } }),
      ),
    ).toEqual(["198.18.1.5/24"]);
  });

  test("routes keep host bits and optional fields, DNS keeps only what is set", () => {
    const c = loadStaticConfig(
      net({
        routes: [{ dst: "0.0.0.0/0" }, { dst: "198.18.9.1/24", gw: "198.18.0.9", mtu: 1400, table: 0 }],
        dns: { nameservers: ["198.18.0.53"], domain: "" },
      }),
      "",
    );
    expect(c.routes).toEqual([{ dst: "0.0.0.0/0" }, { dst: "198.18.9.1/24", gw: "198.18.0.9", mtu: 1400, table: 0 }]);
    expect(c.dns).toEqual({ nameservers: ["198.18.0.53"] });
  });

  test("two addresses of one family need spec 0.3.0 or later", () => {
    const ipam = { addresses: [{ address: "198.18.0.5/24" }, { address: "198.18.0.6/24" }] };
    expect(addrs({ ...net(ipam), cniVersion: "0.3.0" })).toHaveLength(2);
    expect(
      addrs({
        ...net({ addresses: [{ address: "198.18.0.5/24" }, { address: "2001:db8::5/64" }] }),
        cniVersion: "0.2.0",
      }),
    ).toHaveLength(2);
    expect(failure({ ...net(ipam), cniVersion: "0.2.0" })).toEqual({
      code: 7,
      msg: "CNI version 0.2.0 does not support more than 1 address per family",
    });
  });
});

describe("static's errors carry the reference's messages (code 7 for the config, 4 for CNI_ARGS, SPEC §4.2)", () => {
  const cases: [string, unknown, string, string][] = [
    ["no ipam", { cniVersion: "1.0.0", name: "n" }, "", "IPAM config missing 'ipam' key"],
    [
      "ipam not an object",
      net(5),
      "",
      "json: cannot unmarshal number into Go struct field Net.ipam of type main.IPAMConfig",
    ],
    [
      "address not a string",
      net({ addresses: [{ address: 5 }] }),
      "",
      "json: cannot unmarshal number into Go struct field Address.ipam.addresses.address of type string",
    ],
    [
      "gateway not a string",
      net({ addresses: [{ address: "198.18.0.5/24", gateway: 5 }] }),
      "",
      "json: cannot unmarshal number into Go struct field Address.ipam.addresses.gateway of type net.IP",
    ],
    [
      "routes not a list",
      net({ routes: 5 }),
      "",
      "json: cannot unmarshal number into Go struct field IPAMConfig.ipam.routes of type []*types.Route",
    ],
    [
      "route dst not a string",
      net({ routes: [{ dst: 5 }] }),
      "",
      "json: cannot unmarshal number into Go struct field IPAMConfig.ipam.routes of type string",
    ],
    [
      "nameservers not a list",
      net({ dns: { nameservers: "x" } }),
      "",
      "json: cannot unmarshal string into Go struct field DNS.ipam.dns.nameservers of type []string",
    ],
    [
      "args ips not a list",
      net({}, { args: { cni: { ips: 5 } } }),
      "",
      "json: cannot unmarshal number into Go struct field IPAMArgs.args.cni.ips of type []string",
    ],
    [
      "address not CIDR",
      net({ addresses: [{ address: "x" }] }),
      "",
      "the 'address' field is expected to be in CIDR notation, got: 'x'",
    ],
    [
      "gateway not an IP",
      net({ addresses: [{ address: "198.18.0.5/24", gateway: "zz" }] }),
      "",
      "invalid IP address: zz",
    ],
    ["route dst not CIDR", net({ routes: [{ dst: "x" }] }), "", "invalid CIDR address: x"],
    ["route gw not an IP", net({ routes: [{ dst: "198.18.0.0/16", gw: "q" }] }), "", "invalid IP address: q"],
    [
      "CNI_ARGS IP not CIDR",
      net({}),
      "IP=198.18.0.5",
      "the 'ip' field is expected to be in CIDR notation, got: '198.18.0.5'",
    ],
    ["CNI_ARGS GATEWAY not an IP", net({}), "IP=198.18.0.5/24;GATEWAY=zz", "invalid gateway address: zz"],
    [
      "args ips entry not CIDR",
      net({}, { args: { cni: { ips: ["198.18.0.7"] } } }),
      "",
      "an entry in the 'ips' field is NOT in CIDR notation, got: '198.18.0.7'",
    ],
    [
      "runtimeConfig ips entry not CIDR",
      net({}, { runtimeConfig: { ips: ["x"] } }),
      "",
      "an entry in the 'ips' field is NOT in CIDR notation, got: 'x'",
    ],
  ];
  for (const [what, config, args, msg] of cases) {
    test(`${what}: "${msg}"`, () => {
      expect(failure(config, args)).toEqual({ code: 7, msg });
    });
  }

  test("an unknown CNI_ARGS key without IgnoreUnknown is code 4 (CA-3)", () => {
    expect(failure(net({}), "FOO=1")).toEqual({ code: 4, msg: 'ARGS: unknown args ["FOO=1"]' });
    expect(addrs(net({}), "IgnoreUnknown=1;FOO=1;IP=198.18.0.5/24")).toEqual(["198.18.0.5/24"]);
  });
});
