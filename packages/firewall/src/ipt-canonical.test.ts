import { describe, expect, test } from "bun:test";
import { canonicalIptRule } from "./ipt-canonical.ts";

// Each expectation is what iptables-save (nft and legacy, v1.8.9) printed for the input.
describe("canonicalIptRule", () => {
  test("puts addresses first, masks them and writes the prefix", () => {
    expect(
      canonicalIptRule(4, [
        "-p",
        "tcp",
        "--dport",
        "8080",
        "-s",
        "198.18.0.5/24",
        "-j",
        "MARK",
        "--set-xmark",
        "0x2000/0x2000",
      ]),
    ).toEqual([
      "-s",
      "198.18.0.0/24",
      "-p",
      "tcp",
      "-m",
      "tcp",
      "--dport",
      "8080",
      "-j",
      "MARK",
      "--set-xmark",
      "0x2000/0x2000",
    ]);
    expect(
      canonicalIptRule(4, [
        "-d",
        "198.18.0.1",
        "-p",
        "udp",
        "--dport",
        "53",
        "-j",
        "DNAT",
        "--to-destination",
        "198.18.0.5:53",
      ]),
    ).toEqual([
      "-d",
      "198.18.0.1/32",
      "-p",
      "udp",
      "-m",
      "udp",
      "--dport",
      "53",
      "-j",
      "DNAT",
      "--to-destination",
      "198.18.0.5:53",
    ]);
    expect(canonicalIptRule(6, ["-s", "2001:DB8:0:0::5", "!", "-d", "ff00::/8", "-j", "MASQUERADE"])).toEqual([
      "-s",
      "2001:db8::5/128",
      "!",
      "-d",
      "ff00::/8",
      "-j",
      "MASQUERADE",
    ]);
  });

  test("moves -p before the matches and spells multiport's ports as saved", () => {
    expect(
      canonicalIptRule(4, [
        "-m",
        "comment",
        "--comment",
        'dnat name: "n" id: "c"',
        "-m",
        "multiport",
        "-p",
        "tcp",
        "--destination-ports",
        "80,81",
        "-j",
        "CNI-DN-x",
      ]),
    ).toEqual([
      "-p",
      "tcp",
      "-m",
      "comment",
      "--comment",
      'dnat name: "n" id: "c"',
      "-m",
      "multiport",
      "--dports",
      "80,81",
      "-j",
      "CNI-DN-x",
    ]);
  });

  test("keeps a canonical rule as it is", () => {
    const r = ["-s", "198.18.0.5/32", "-m", "comment", "--comment", 'name: "n" id: "c"', "-j", "CNI-x"];
    expect(canonicalIptRule(4, r)).toEqual(r);
    expect(canonicalIptRule(4, ["-m", "addrtype", "--dst-type", "LOCAL", "-j", "CNI-HOSTPORT-DNAT"])).toEqual([
      "-m",
      "addrtype",
      "--dst-type",
      "LOCAL",
      "-j",
      "CNI-HOSTPORT-DNAT",
    ]);
  });

  test("drops a match on any address, as iptables-save does", () => {
    expect(canonicalIptRule(4, ["-s", "0.0.0.0/0", "-p", "tcp", "--dport", "80", "-j", "ACCEPT"])).toEqual([
      "-p",
      "tcp",
      "-m",
      "tcp",
      "--dport",
      "80",
      "-j",
      "ACCEPT",
    ]);
    expect(canonicalIptRule(6, ["-s", "::/0", "-j", "ACCEPT"])).toEqual(["-j", "ACCEPT"]);
  });
});
