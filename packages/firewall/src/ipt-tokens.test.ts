import { describe, expect, test } from "bun:test";
import { formatIptRule, quoteIptToken, splitIptLine } from "./ipt-tokens.ts";

describe("iptables tokens", () => {
  test("plain tokens stay bare and a comment is quoted as iptables-save quotes it", () => {
    expect(
      formatIptRule(["-s", "198.18.0.5/32", "-m", "comment", "--comment", 'name: "n" id: "c"', "-j", "CNI-X"]),
    ).toBe('-s 198.18.0.5/32 -m comment --comment "name: \\"n\\" id: \\"c\\"" -j CNI-X');
    expect(quoteIptToken("")).toBe('""');
    expect(quoteIptToken("it's\\")).toBe('"it\\\'s\\\\"');
  });

  test("splitting undoes quoting, including empty and escaped tokens", () => {
    expect(splitIptLine('-A POSTROUTING -m comment --comment "name: \\"n\\" id: \\"c\\"" -j CNI-X')).toEqual([
      "-A",
      "POSTROUTING",
      "-m",
      "comment",
      "--comment",
      'name: "n" id: "c"',
      "-j",
      "CNI-X",
    ]);
    expect(splitIptLine('a  "" "b c"')).toEqual(["a", "", "b c"]);
  });

  test("split(format(rule)) is the rule for awkward tokens", () => {
    const rule = ["x y", 'q"', "back\\slash", "it's", "", "\t", "ünï"];
    expect(splitIptLine(formatIptRule(rule))).toEqual(rule);
  });
});
