import { describe, expect, test } from "bun:test";
import type { IptChainState } from "./firewall.ts";
import type { IptablesOp, IptRule } from "./ops.ts";
import { renderIptRestore } from "./render-ipt.ts";

const NAT: IptChainState[] = [
  { name: "PREROUTING", rules: [] },
  { name: "INPUT", rules: [] },
  { name: "OUTPUT", rules: [] },
  { name: "POSTROUTING", rules: [] },
];
const CMT = 'name: "podman" id: "c1"';
const CHAIN = "CNI-10b6f28dc236b0b51d7abaf2";
const ACCEPT: IptRule = ["-d", "198.18.0.0/24", "-m", "comment", "--comment", CMT, "-j", "ACCEPT"];
const MASQ: IptRule = ["!", "-d", "224.0.0.0/4", "-m", "comment", "--comment", CMT, "-j", "MASQUERADE"];
const JUMP: IptRule = ["-s", "198.18.0.5/32", "-m", "comment", "--comment", CMT, "-j", CHAIN];

const masqAdd: IptablesOp[] = [
  { op: "ipt.chain.ensure", family: 4, table: "nat", chain: CHAIN },
  { op: "ipt.rule.append", family: 4, table: "nat", chain: CHAIN, rule: ACCEPT },
  { op: "ipt.rule.append", family: 4, table: "nat", chain: CHAIN, rule: MASQ },
  { op: "ipt.rule.append", family: 4, table: "nat", chain: "POSTROUTING", rule: JUMP },
];
const masqDel: IptablesOp[] = [
  { op: "ipt.rule.delete", family: 4, table: "nat", chain: "POSTROUTING", rule: JUMP },
  { op: "ipt.chain.remove", family: 4, table: "nat", chain: CHAIN },
];
const added: IptChainState[] = [
  { name: "PREROUTING", rules: [] },
  { name: "INPUT", rules: [] },
  { name: "OUTPUT", rules: [] },
  { name: "POSTROUTING", rules: [JUMP] },
  { name: CHAIN, rules: [ACCEPT, MASQ] },
];

describe("renderIptRestore", () => {
  test("an ipMasq ADD on an empty table creates the chain and appends in order (H-3)", () => {
    expect(renderIptRestore(masqAdd, 4, () => NAT)).toBe(
      [
        "*nat",
        `-N ${CHAIN}`,
        `-A ${CHAIN} -d 198.18.0.0/24 -m comment --comment "name: \\"podman\\" id: \\"c1\\"" -j ACCEPT`,
        `-A ${CHAIN} ! -d 224.0.0.0/4 -m comment --comment "name: \\"podman\\" id: \\"c1\\"" -j MASQUERADE`,
        `-A POSTROUTING -s 198.18.0.5/32 -m comment --comment "name: \\"podman\\" id: \\"c1\\"" -j ${CHAIN}`,
        "COMMIT",
        "",
      ].join("\n"),
    );
  });

  test("the same ADD again writes nothing, so no restore runs", () => {
    expect(renderIptRestore(masqAdd, 4, () => added)).toBeUndefined();
  });

  test("a DEL deletes the jump once, then flushes and removes the chain", () => {
    expect(renderIptRestore(masqDel, 4, () => added)).toBe(
      [
        "*nat",
        `-D POSTROUTING -s 198.18.0.5/32 -m comment --comment "name: \\"podman\\" id: \\"c1\\"" -j ${CHAIN}`,
        `-F ${CHAIN}`,
        `-X ${CHAIN}`,
        "COMMIT",
        "",
      ].join("\n"),
    );
  });

  test("a DEL when everything is gone writes nothing (DEL-3)", () => {
    expect(renderIptRestore(masqDel, 4, () => NAT)).toBeUndefined();
  });

  test("chain.remove deletes every jump to the chain, one line per copy, and an empty chain is not flushed", () => {
    const state: IptChainState[] = [
      ...NAT.slice(0, 3),
      { name: "POSTROUTING", rules: [JUMP, ["-j", "MASQUERADE"], JUMP] },
      { name: CHAIN, rules: [] },
    ];
    expect(
      renderIptRestore([{ op: "ipt.chain.remove", family: 4, table: "nat", chain: CHAIN }], 4, () => state)?.split(
        "\n",
      ),
    ).toEqual([
      "*nat",
      `-D POSTROUTING -s 198.18.0.5/32 -m comment --comment "name: \\"podman\\" id: \\"c1\\"" -j ${CHAIN}`,
      `-D POSTROUTING -s 198.18.0.5/32 -m comment --comment "name: \\"podman\\" id: \\"c1\\"" -j ${CHAIN}`,
      `-X ${CHAIN}`,
      "COMMIT",
      "",
    ]);
  });

  test("insert goes first with -I 1 and a built-in chain is never declared", () => {
    const ops: IptablesOp[] = [
      { op: "ipt.chain.ensure", family: 6, table: "nat", chain: "POSTROUTING" },
      { op: "ipt.chain.ensure", family: 6, table: "nat", chain: "CNI-HOSTPORT-MASQ" },
      {
        op: "ipt.rule.insert",
        family: 6,
        table: "nat",
        chain: "POSTROUTING",
        rule: ["-m", "comment", "--comment", "CNI portfwd requiring masquerade", "-j", "CNI-HOSTPORT-MASQ"],
      },
    ];
    expect(renderIptRestore(ops, 6, () => [])).toBe(
      '*nat\n-N CNI-HOSTPORT-MASQ\n-I POSTROUTING 1 -m comment --comment "CNI portfwd requiring masquerade" -j CNI-HOSTPORT-MASQ\nCOMMIT\n',
    );
  });

  test("only the family asked for is rendered, one block per table", () => {
    const ops: IptablesOp[] = [
      { op: "ipt.chain.ensure", family: 4, table: "filter", chain: "CNI-FORWARD" },
      { op: "ipt.chain.ensure", family: 6, table: "filter", chain: "CNI-FORWARD" },
      { op: "ipt.chain.ensure", family: 4, table: "nat", chain: "CNI-X" },
      { op: "ipt.chain.flush", family: 4, table: "filter", chain: "FORWARD" },
    ];
    const reads = (t: string): IptChainState[] =>
      t === "filter" ? [{ name: "FORWARD", rules: [["-j", "ACCEPT"]] }] : [];
    expect(renderIptRestore(ops, 4, reads)).toBe(
      "*filter\n-N CNI-FORWARD\n-F FORWARD\nCOMMIT\n*nat\n-N CNI-X\nCOMMIT\n",
    );
  });

  test("an append to a missing chain is still written, for the kernel to refuse", () => {
    expect(
      renderIptRestore(
        [{ op: "ipt.rule.append", family: 4, table: "nat", chain: "CNI-NOPE", rule: ["-j", "ACCEPT"] }],
        4,
        () => NAT,
      ),
    ).toBe("*nat\n-A CNI-NOPE -j ACCEPT\nCOMMIT\n");
  });
});

describe("renderIptRestore refusals", () => {
  test("removing a built-in chain is refused before anything runs", () => {
    expect(() =>
      renderIptRestore([{ op: "ipt.chain.remove", family: 4, table: "nat", chain: "POSTROUTING" }], 4, () => NAT),
    ).toThrow("built-in");
  });
});
