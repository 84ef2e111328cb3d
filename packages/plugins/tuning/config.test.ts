import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { checkIfName, checkSysctlKeys, parseTuningConfig } from "./config.ts";
import { hasDuplicateSysctlKey } from "./duplicates.ts";
import { invalidMacMessage, parseGoMac } from "./mac.ts";
import { checkAllowlist, kernelKey, parseAllowlist, sysctlFile } from "./sysctl.ts";

const base = { cniVersion: "1.0.0", name: "t", type: "tuning" };

function failure(fn: () => unknown): { code: number; msg: string } {
  try {
    fn();
  } catch (err) {
    const e = CniError.from(err);
    return { code: e.code, msg: e.msg };
  }
  throw new Error("no error");
}

describe("tuning's config and its precedence (issue 12 item 1)", () => {
  test("defaults: /run/cni/tuning, nothing changed", () => {
    expect(parseTuningConfig(base, "")).toMatchObject({
      dataDir: "/run/cni/tuning",
      sysctl: [],
      mac: "",
      promisc: false,
      mtu: 0,
      allmulti: undefined,
      txQLen: undefined,
    });
  });

  test("the MAC comes from the config, then CNI_ARGS MAC=, then the mac capability, then args.cni.mac", () => {
    const c = { ...base, mac: "02:00:00:00:00:01" };
    expect(parseTuningConfig(c, "").mac).toBe("02:00:00:00:00:01");
    expect(parseTuningConfig(c, "MAC=02:00:00:00:00:02").mac).toBe("02:00:00:00:00:02");
    const rc = { ...c, runtimeConfig: { mac: "02:00:00:00:00:03" } };
    expect(parseTuningConfig(rc, "MAC=02:00:00:00:00:02").mac).toBe("02:00:00:00:00:03");
    expect(parseTuningConfig({ ...rc, args: { cni: { mac: "02:00:00:00:00:04" } } }, "MAC=02:00:00:00:00:02").mac).toBe(
      "02:00:00:00:00:04",
    );
  });

  test("args.cni overrides each value it sets and merges its sysctls over the config's", () => {
    const c = {
      ...base,
      mtu: 1400,
      promisc: true,
      allmulti: false,
      txQLen: 100,
      sysctl: { "net.ipv4.conf.IFNAME.arp_notify": "1", "net.ipv4.conf.IFNAME.proxy_arp": "0" },
    };
    const args = {
      cni: {
        mtu: 1300,
        promisc: false,
        allmulti: true,
        txQLen: 0,
        sysctl: { "net.ipv4.conf.IFNAME.proxy_arp": "1", "net.ipv4.conf.IFNAME.rp_filter": "2" },
      },
    };
    expect(parseTuningConfig({ ...c, args }, "")).toMatchObject({
      mtu: 1300,
      promisc: false,
      allmulti: true,
      txQLen: 0,
      sysctl: [
        ["net.ipv4.conf.IFNAME.arp_notify", "1"],
        ["net.ipv4.conf.IFNAME.proxy_arp", "1"],
        ["net.ipv4.conf.IFNAME.rp_filter", "2"],
      ],
    });
  });

  test("a wrongly typed key is Go's unmarshal message under 'failed to load netconf' (code 7)", () => {
    expect(failure(() => parseTuningConfig({ ...base, mtu: "x" }, ""))).toEqual({
      code: 7,
      msg: "failed to load netconf: json: cannot unmarshal string into Go struct field TuningConf.mtu of type int",
    });
    expect(failure(() => parseTuningConfig({ ...base, promisc: 1 }, ""))).toEqual({
      code: 7,
      msg: "failed to load netconf: json: cannot unmarshal number into Go struct field TuningConf.promisc of type bool",
    });
    expect(failure(() => parseTuningConfig({ ...base, args: { cni: { mtu: 1.5 } } }, ""))).toEqual({
      code: 7,
      msg: "failed to load netconf: json: cannot unmarshal number 1.5 into Go struct field IPAMArgs.args.cni.mtu of type int",
    });
  });

  test("an unknown CNI_ARGS key is code 4 (CA-3)", () => {
    expect(failure(() => parseTuningConfig(base, "FOO=1"))).toEqual({ code: 4, msg: 'ARGS: unknown args ["FOO=1"]' });
  });

  test("sysctl must be a map of strings without a key named twice (validateSysctlConflictingKeys)", () => {
    const raw = (s: string) => new TextEncoder().encode(s);
    expect(failure(() => checkSysctlKeys({ sysctl: { a: 1 } }, raw('{"sysctl":{"a":1}}')))).toEqual({
      code: 7,
      msg: "json: cannot unmarshal number into Go struct field sysctlCheck.sysctl of type string",
    });
    expect(failure(() => checkSysctlKeys({ sysctl: 5 }, raw('{"sysctl":5}')))).toEqual({
      code: 7,
      msg: "json: cannot unmarshal number into Go struct field sysctlCheck.sysctl of type map[main.sysctlKey]string",
    });
    const dup = '{"x":{"sysctl":{"a":"1"}},"sysctl":{"net.a":"1", "net.b":"2","net.a":"3"}}';
    expect(failure(() => checkSysctlKeys(JSON.parse(dup), raw(dup)))).toEqual({
      code: 7,
      msg: "duplicated sysctl keys are not allowed",
    });
  });

  test("duplicates are found only among the top-level sysctl keys, whatever the nesting and escapes", () => {
    expect(hasDuplicateSysctlKey('{"a":[{"sysctl":{"k":"1","k":"2"}}],"sysctl":{"k":"\\"}"}}')).toBe(false);
    expect(hasDuplicateSysctlKey('{"sysctl":{"k\\u0041":"1","kA":"2"}}')).toBe(true);
    expect(hasDuplicateSysctlKey('{"sysctl":{"a":"1"},"sysctl":{"a":"2"}}')).toBe(true);
  });

  test("an interface name with a slash is refused", () => {
    expect(failure(() => checkIfName("a/b"))).toEqual({
      code: 4,
      msg: "Interface name (a/b) contains an invalid character /",
    });
  });
});

describe("tuning's sysctl keys and allowlist", () => {
  test("dots become slashes and the first IFNAME the interface", () => {
    expect(sysctlFile("net.ipv4.conf.IFNAME.arp_notify", "eth0")).toBe("/proc/sys/net/ipv4/conf/eth0/arp_notify");
    expect(sysctlFile("net/ipv6/conf/IFNAME/accept_ra", "eth0")).toBe("/proc/sys/net/ipv6/conf/eth0/accept_ra");
    expect(kernelKey("/proc/sys/net/ipv4/conf/eth0/arp_notify")).toBe("net.ipv4.conf.eth0.arp_notify");
    expect(kernelKey("/proc/sys/net/ipv4/conf/eth0.5/arp_notify")).toBe("net/ipv4/conf/eth0.5/arp_notify");
  });

  test("only keys under /proc/sys/net are accepted, after the path is cleaned", () => {
    expect(failure(() => sysctlFile("kernel.hostname", "eth0"))).toEqual({
      code: 7,
      msg: 'invalid net sysctl key: "kernel/hostname"',
    });
    // Dots become slashes before the path is cleaned, so ".." never survives: this stays under net.
    expect(sysctlFile("net/../kernel/x", "eth0")).toBe("/proc/sys/net/kernel/x");
    expect(failure(() => sysctlFile("IFNAME/../../kernel/x", "eth0"))).toEqual({
      code: 7,
      msg: 'invalid net sysctl key: "eth0///////kernel/x"',
    });
    expect(failure(() => sysctlFile("net", "eth0"))).toEqual({ code: 7, msg: 'invalid net sysctl key: "net"' });
  });

  test("the allowlist holds trimmed non-empty lines; a key no line matches is refused with the list", () => {
    const list = parseAllowlist("  ^net\\.ipv4\\.conf\\.IFNAME\\.[a-z_]+$ \n\n^net\\.core\\.somaxconn$\n");
    expect(list).toEqual(["^net\\.ipv4\\.conf\\.IFNAME\\.[a-z_]+$", "^net\\.core\\.somaxconn$"]);
    expect(() => checkAllowlist(["net.ipv4.conf.IFNAME.arp_notify", "net.core.somaxconn"], list)).not.toThrow();
    expect(failure(() => checkAllowlist(["net.ipv4.ip_forward"], list))).toEqual({
      code: 7,
      msg: "Sysctl net.ipv4.ip_forward is not allowed. Only the following sysctls are allowed: [^net\\.ipv4\\.conf\\.IFNAME\\.[a-z_]+$ ^net\\.core\\.somaxconn$]",
    });
    expect(() => checkAllowlist(["anything"], parseAllowlist(undefined))).not.toThrow();
  });
});

describe("tuning's MAC parsing is Go's net.ParseMAC", () => {
  test("colon, dash and dotted forms of 6, 8 and 20 bytes; Go's String() form back", () => {
    expect(parseGoMac("02:AA:00:00:00:01")).toBe("02:aa:00:00:00:01");
    expect(parseGoMac("02-aa-00-00-00-01")).toBe("02:aa:00:00:00:01");
    expect(parseGoMac("02aa.0000.0001")).toBe("02:aa:00:00:00:01");
    expect(parseGoMac("02:00:00:00:00:00:00:01")).toBe("02:00:00:00:00:00:00:01");
  });

  test("anything else is refused with the reference's message", () => {
    for (const bad of ["02:00:00:00:00", "02:00:00:00:00:0g", "02:00-00:00:00:01", "0200.0000.000", "zz"])
      expect(parseGoMac(bad)).toBeUndefined();
    expect(invalidMacMessage("zz")).toBe("invalid args zz for MAC addr: address zz: invalid MAC address");
  });
});
