import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { formatPrefix } from "@tscni/spec/ipnet";
import { backendOfConditions, parsePortmapConfig, wrapParseError } from "./config.ts";

const both = async () => "iptables" as const;
const prev = {
  cniVersion: "1.0.0",
  interfaces: [
    { name: "veth1" },
    { name: "eth0", sandbox: "/var/run/netns/x" },
    { name: "eth1", sandbox: "/var/run/netns/x" },
  ],
  ips: [
    { address: "198.18.9.9/24", interface: 0 },
    { address: "198.18.7.7/24", interface: 2 },
    { address: "198.18.0.5/24", interface: 1 },
    { address: "198.18.1.5/24", interface: 1 },
    { address: "2001:db8::5/64" },
  ],
};
const base = (extra: Record<string, unknown> = {}) => ({
  cniVersion: "1.0.0",
  name: "net",
  type: "portmap",
  prevResult: prev,
  ...extra,
});
const maps = (...m: object[]) => ({ runtimeConfig: { portMappings: m } });

async function failure(config: unknown, support = both): Promise<CniError> {
  try {
    await parsePortmapConfig(config, "eth0", support);
  } catch (e) {
    return CniError.from(e);
  }
  throw new Error("parsed");
}

describe("parsePortmapConfig", () => {
  test("applies the reference's defaults: snat on, mark bit 13, iptables, no mappings", async () => {
    const c = await parsePortmapConfig(base(), "eth0", both);
    expect(c).toMatchObject({
      backend: "iptables",
      snat: true,
      masqAll: false,
      markMasqBit: 13,
      externalSetMarkChain: undefined,
      portMappings: [],
      conditionsV4: [],
      conditionsV6: [],
    });
  });

  test("takes the first IPv4 and IPv6 on CNI_IFNAME in a sandbox or on no interface", async () => {
    const c = await parsePortmapConfig(base(), "eth0", both);
    expect(c.containerV4 && formatPrefix(c.containerV4)).toBe("198.18.0.5/24");
    expect(c.containerV6 && formatPrefix(c.containerV6)).toBe("2001:db8::5/64");
  });

  test("reads the mappings with an empty hostIP when unset", async () => {
    const c = await parsePortmapConfig(
      base(maps({ hostPort: 8080, containerPort: 80, protocol: "tcp" })),
      "eth0",
      both,
    );
    expect(c.portMappings).toEqual([{ hostPort: 8080, containerPort: 80, protocol: "tcp", hostIP: "" }]);
  });

  test("matches mapping keys case-insensitively as Go's decoder does: containerd's go-cni sends HostPort, ContainerPort, Protocol, HostIP", async () => {
    const c = await parsePortmapConfig(
      base(
        maps(
          { HostPort: 8080, ContainerPort: 80, Protocol: "tcp", HostIP: "" },
          { hostport: 1, HOSTPORT: 9090, containerPort: 90, protocol: "udp" },
        ),
      ),
      "eth0",
      async () => "iptables",
    );
    expect(c.portMappings).toEqual([
      { hostPort: 8080, containerPort: 80, protocol: "tcp", hostIP: "" },
      { hostPort: 9090, containerPort: 90, protocol: "udp", hostIP: "" },
    ]);
  });

  test("folds mapping keys as Go does, the Kelvin sign and the long s included, and nothing else", async () => {
    // "hoſtPort" (U+017F) and "\u212Aey"-style runes fold onto ASCII in Go; "hóstPort" does not.
    const c = await parsePortmapConfig(
      base(maps({ hoſtPort: 8081, containerPort: 81, hóstPort: 1 })),
      "eth0",
      async () => "iptables",
    );
    expect(c.portMappings).toEqual([{ hostPort: 8081, containerPort: 81, protocol: "", hostIP: "" }]);
  });

  test("takes the default backend from the probe when the config names none", async () => {
    const m = maps({ hostPort: 8080, containerPort: 80, protocol: "tcp" });
    expect((await parsePortmapConfig(base(m), "eth0", async () => "nftables")).backend).toBe("nftables");
  });

  test("refuses nftables conditions when the default is iptables", async () => {
    const m = maps({ hostPort: 8080, containerPort: 80, protocol: "tcp" });
    expect((await failure(base({ ...m, conditionsV4: ["ip", "saddr", "198.18.0.9"] }))).msg).toBe(
      "iptables backend was requested but configuration contains nftables-specific options [conditionsV4]",
    );
  });

  test("refuses a mark bit out of 0..31 and a mark bit with an external chain, with code 7", async () => {
    const e = await failure(base({ markMasqBit: 32 }));
    expect([e.code, e.msg]).toEqual([7, "MasqMarkBit must be between 0 and 31"]);
    expect((await failure(base({ markMasqBit: -1 }))).msg).toBe("MasqMarkBit must be between 0 and 31");
    expect((await failure(base({ markMasqBit: 13, externalSetMarkChain: "KUBE-MARK-MASQ" }))).msg).toBe(
      "Cannot specify externalSetMarkChain and markMasqBit",
    );
  });

  test("refuses an unknown backend and options of the other backend with the reference's messages", async () => {
    expect((await failure(base({ backend: "ebpf" }))).msg).toBe('unrecognized backend "ebpf"');
    expect(
      (await failure(base({ backend: "nftables", externalSetMarkChain: "X", conditionsV4: ["-d", "1.2.3.4"] }))).msg,
    ).toBe(
      "nftables backend was requested but configuration contains iptables-specific options [externalSetMarkChain conditionsV4]",
    );
    expect((await failure(base({ backend: "iptables", conditionsV6: ["ip6", "saddr", "::1"] }))).msg).toBe(
      "iptables backend was requested but configuration contains nftables-specific options [conditionsV6]",
    );
  });

  test("refuses non-positive ports, container port first, without an upper bound", async () => {
    expect((await failure(base(maps({ hostPort: 0, containerPort: 0, protocol: "tcp" })))).msg).toBe(
      "Invalid container port number: 0",
    );
    expect((await failure(base(maps({ hostPort: -5, containerPort: 80, protocol: "tcp" })))).msg).toBe(
      "Invalid host port number: -5",
    );
    const c = await parsePortmapConfig(
      base(maps({ hostPort: 70000, containerPort: 80, protocol: "tcp" })),
      "eth0",
      both,
    );
    expect(c.portMappings[0]?.hostPort).toBe(70000);
  });

  test("a wrongly typed key fails with Go's unmarshal message under the reference's prefix", async () => {
    expect((await failure(base({ snat: "yes" }))).msg).toBe(
      "failed to parse network configuration: json: cannot unmarshal string into Go struct field PortMapConf.snat of type bool",
    );
    expect((await failure(base(maps({ hostPort: "80" })))).msg).toBe(
      "failed to parse network configuration: json: cannot unmarshal string into Go struct field PortMapEntry.runtimeConfig.portMappings.hostPort of type int",
    );
  });

  test("a prevResult that does not parse fails with 'could not parse prevResult'", async () => {
    const e = await failure(base({ prevResult: { cniVersion: "1.0.0", ips: [{ address: "nope" }] } }));
    expect(e.msg).toStartWith("could not parse prevResult: ");
  });

  test("ADD and DEL wrap parse errors as 'failed to parse config', keeping the code", async () => {
    const e = wrapParseError(await failure(base({ markMasqBit: 40 })));
    expect([e.code, e.msg]).toEqual([7, "failed to parse config: MasqMarkBit must be between 0 and 31"]);
  });

  test("probes the firewall only when the config names no backend and has mappings", async () => {
    let probed = 0;
    const probe = async () => (probed++, "iptables" as const);
    const m = maps({ hostPort: 8080, containerPort: 80, protocol: "tcp" });
    await parsePortmapConfig(base({ backend: "nftables", ...m }), "eth0", probe);
    await parsePortmapConfig(base(), "eth0", probe);
    expect(probed).toBe(0);
    await parsePortmapConfig(base(m), "eth0", probe);
    expect(probed).toBe(1);
  });
});

describe("backendOfConditions", () => {
  test("reads iptables syntax from a leading '-' or '!', nftables otherwise, nothing when empty", () => {
    expect(backendOfConditions(["-d", "1.2.3.4"])).toBe("iptables");
    expect(backendOfConditions(["!", "-i", "lo"])).toBe("iptables");
    expect(backendOfConditions(["ip", "saddr", "1.2.3.4"])).toBe("nftables");
    expect(backendOfConditions([""])).toBeUndefined();
    expect(backendOfConditions(undefined)).toBeUndefined();
  });
});
