import { describe, expect, test } from "bun:test";
import type { IptChainState } from "./firewall.ts";
import { renderIptUndo } from "./undo-ipt.ts";

const st = (chains: Record<string, string[][]>): IptChainState[] =>
  Object.entries(chains).map(([name, rules]) => ({ name, rules }));

describe("renderIptUndo", () => {
  test("nothing differs, nothing is written", () => {
    const s = st({ POSTROUTING: [["-j", "ACCEPT"]] });
    expect(renderIptUndo(s, s)).toEqual([]);
  });

  test("removes an added chain and the jump to it, by rule number", () => {
    const before = st({
      POSTROUTING: [
        ["-j", "A"],
        ["-j", "B"],
      ],
    });
    const after = st({
      POSTROUTING: [
        ["-j", "A"],
        ["-j", "CNI-X"],
        ["-j", "B"],
        ["-j", "CNI-X"],
      ],
      "CNI-X": [["-j", "MASQUERADE"]],
    });
    expect(renderIptUndo(before, after)).toEqual(["-D POSTROUTING 4", "-D POSTROUTING 2", "-F CNI-X", "-X CNI-X"]);
  });

  test("re-creates a removed chain and puts deleted rules back at their positions", () => {
    const before = st({
      POSTROUTING: [
        ["-j", "A"],
        ["-j", "CNI-X"],
        ["-j", "B"],
      ],
      "CNI-X": [["-d", "198.18.0.0/24", "-j", "ACCEPT"]],
    });
    const after = st({
      POSTROUTING: [
        ["-j", "A"],
        ["-j", "B"],
      ],
    });
    expect(renderIptUndo(before, after)).toEqual([
      "-N CNI-X",
      "-I POSTROUTING 2 -j CNI-X",
      "-I CNI-X 1 -d 198.18.0.0/24 -j ACCEPT",
    ]);
  });

  test("keeps duplicates straight: only the extra copy goes", () => {
    const before = st({
      C: [
        ["-j", "X"],
        ["-j", "Y"],
      ],
    });
    const after = st({
      C: [
        ["-j", "X"],
        ["-j", "X"],
        ["-j", "Y"],
      ],
    });
    expect(renderIptUndo(before, after)).toEqual(["-D C 2"]);
  });
});
