import { describe, expect, test } from "bun:test";
import { goDecodeUtf8 } from "@tscni/spec/go";
import { parseConfList } from "./conf-list.ts";

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));

describe("config bytes decode as Go's encoding/json reads them", () => {
  test("valid UTF-8 passes through, a byte-order mark included", () => {
    expect(goDecodeUtf8(bytes("aé€😀"))).toBe("aé€😀");
    expect(goDecodeUtf8(bytes([0xef, 0xbb, 0xbf], "x"))).toBe("\ufeffx");
  });

  test("each byte of a truncated sequence is its own U+FFFD (utf8.DecodeRune width 1)", () => {
    expect(goDecodeUtf8(bytes([0xed, 0x80], "{"))).toBe("\ufffd\ufffd{");
    expect(goDecodeUtf8(bytes("a", [0xe2, 0x82], "b"))).toBe("a\ufffd\ufffdb");
    expect(goDecodeUtf8(bytes([0xf0, 0x9f, 0x98]))).toBe("\ufffd\ufffd\ufffd");
  });

  test("surrogates, overlongs, values past U+10FFFF and stray bytes are replaced byte by byte", () => {
    expect(goDecodeUtf8(bytes([0xed, 0xa0, 0x80]))).toBe("\ufffd\ufffd\ufffd");
    expect(goDecodeUtf8(bytes([0xc0, 0x80]))).toBe("\ufffd\ufffd");
    expect(goDecodeUtf8(bytes([0xf4, 0x90, 0x80, 0x80]))).toBe("\ufffd\ufffd\ufffd\ufffd");
    expect(goDecodeUtf8(bytes([0x80], "x", [0xff]))).toBe("\ufffdx\ufffd");
  });

  // Regression (cni fuzz config --against, issue 15): libcni reads this cniVersion as
  // "\ufffd\ufffd{0.1.0"; we read one U+FFFD.
  test("a list's cniVersion with a truncated sequence reads as libcni reads it", () => {
    const list = parseConfList(
      bytes('{"cniVersion":"', [0xed, 0x80], '{0.1.0","name":"a","plugins":[{"type":"bridge"}]}'),
    );
    expect(list.cniVersion).toBe("\ufffd\ufffd{0.1.0");
  });
});
