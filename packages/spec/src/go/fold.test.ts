import { describe, expect, test } from "bun:test";
import { goFoldName } from "./index.ts";

describe("goFoldName folds a JSON key as Go's encoding/json matches struct fields", () => {
  test("ASCII letters fold to upper case; digits and punctuation stay", () => {
    expect(goFoldName("hostPort_1")).toBe("HOSTPORT_1");
  });

  test("the Kelvin sign, the long s and the dotted and dotless capital and small i fold onto ASCII", () => {
    expect(goFoldName("\u212aey")).toBe("KEY");
    expect(goFoldName("ho\u017ft")).toBe("HOST");
    expect(goFoldName("\u0130p")).toBe("IP");
    expect(goFoldName("\u0131p")).toBe("IP");
  });

  test("any other non-ASCII rune can never match an ASCII field", () => {
    expect(goFoldName("h\u00f3st")).not.toBe(goFoldName("host"));
  });
});
