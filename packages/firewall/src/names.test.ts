import { describe, expect, test } from "bun:test";
import {
  formatChainName,
  formatComment,
  formatDnatComment,
  formatHashWithPrefix,
  goQuote,
  nftMasqComment,
  nftMasqInstanceHash,
  nftMasqNetworkHash,
} from "./names.ts";

// Every expected string below was printed by a Go program calling the reference's own
// code (pkg/utils/utils.go, pkg/ip/ipmasq_nftables_linux.go, portmap's trimComment).

describe("formatChainName (H-3, 8.5)", () => {
  test("is CNI- plus the SHA-512 hex of net + cid, 28 characters", () => {
    expect(formatChainName("podman", "0123456789abcdef")).toBe("CNI-10b6f28dc236b0b51d7abaf2");
    expect(formatChainName("mynet", "ctr-1")).toBe("CNI-76edbb2e17c69aeb6041d986");
    expect(formatChainName("", "")).toBe("CNI-cf83e1357eefb8bdf1542850");
    expect(formatChainName('we"ird\\net', "x\ty")).toBe("CNI-8a5ef8cbb53929aed9f99d7f");
  });

  test("puts portmap's DN- and SN- prefixes before the hash and keeps 28 characters", () => {
    expect(formatChainName("podman", "0123456789abcdef", "DN-")).toBe("CNI-DN-10b6f28dc236b0b51d7ab");
    expect(formatChainName("podman", "0123456789abcdef", "SN-")).toBe("CNI-SN-10b6f28dc236b0b51d7ab");
    expect(formatChainName("mynet", "ctr-1", "DN-")).toBe("CNI-DN-76edbb2e17c69aeb6041d");
  });

  test("refuses a prefix that leaves no room for the hash, as Go panics", () => {
    expect(() => formatHashWithPrefix(4, "CNI-", "x")).toThrow(RangeError);
    expect(() => formatHashWithPrefix(129, "", "x")).toThrow(RangeError);
  });
});

describe("formatComment (H-3)", () => {
  test("quotes net and cid as Go's %q does", () => {
    expect(formatComment("podman", "0123456789abcdef")).toBe('name: "podman" id: "0123456789abcdef"');
    expect(formatComment('we"ird\\net', "x\ty")).toBe('name: "we\\"ird\\\\net" id: "x\\ty"');
    expect(formatComment("", "")).toBe('name: "" id: ""');
  });

  test("escapes control and invisible characters and keeps printable unicode", () => {
    expect(formatComment("ünï\x01\u200b", "a\nb\x7f")).toBe('name: "ünï\\x01\\u200b" id: "a\\nb\\x7f"');
    expect(goQuote("\u0085\u00a0é😀\u{e0001}")).toBe('"\\u0085\\u00a0é😀\\U000e0001"');
  });
});

describe("formatDnatComment (8.5)", () => {
  test("uses plain %s quoting", () => {
    expect(formatDnatComment('we"ird\\net', "x\ty")).toBe('dnat name: "we"ird\\net" id: "x\ty"');
  });

  test("trims past 255 bytes to 253 and three dots", () => {
    const got = formatDnatComment("n", "b".repeat(300));
    expect(got).toBe(`dnat name: "n" id: "${"b".repeat(253 - 20)}...`);
    expect(got.length).toBe(256);
  });
});

describe("nft ipmasq names (H-3)", () => {
  test("hash the network and the instance to 16 hex characters each", () => {
    expect(nftMasqNetworkHash("podman")).toBe("1d8721804f16f412");
    expect(nftMasqInstanceHash("podman", "eth0", "0123456789abcdef")).toBe("1d8721804f16f412-dfbd22ab690d72bc");
    expect(nftMasqInstanceHash("mynet", "eth1", "ctr-1")).toBe("d23676b4f2d9fe04-45756c7579eae560");
  });

  test("comment is the instance hash then readable text without double quotes", () => {
    expect(nftMasqComment("podman", "eth0", "0123456789abcdef")).toBe(
      "1d8721804f16f412-dfbd22ab690d72bc, net: podman, if: eth0, id: 0123456789abcdef",
    );
    expect(nftMasqComment('we"ird\\net', "eth0", "x\ty")).toBe(
      "398ddf8a78cf7354-a48aa343246d832c, net: weird\\net, if: eth0, id: x\ty",
    );
    expect(nftMasqComment("", "", "")).toBe("cf83e1357eefb8bd-e6e81040502d36d3, net: , if: , id: ");
  });

  test("comment is cut to nft's 128-byte limit", () => {
    const got = nftMasqComment("longnet", "eth0", "a".repeat(200));
    expect(got).toBe(`17da2d7a0b3a7c1e-7fcb3f8687ef07de, net: longnet, if: eth0, id: ${"a".repeat(65)}`);
    expect(got.length).toBe(128);
  });

  test("a cut never splits a multi-byte character", () => {
    const got = nftMasqComment("n", "eth0", "é".repeat(100));
    expect(new TextEncoder().encode(got).length).toBeLessThanOrEqual(128);
    expect(got.endsWith("é")).toBe(true);
  });
});
