import { describe, expect, test } from "bun:test";
import { iptMasqTeardown } from "./masq/iptables.ts";
import type { IptablesOp, IptRule } from "./ops.ts";
import { renderIptOptimistic } from "./render-ipt-optimistic.ts";
import { parseCIDR } from "@tscni/spec/ipnet";

const at = { family: 4, table: "nat" } as const;
const ENTRY: IptRule = ["-p", "tcp", "-m", "comment", "--comment", "c1", "-j", "CNI-DN-1"];

/** portmap's DEL for one container whose address is known (plan-iptables.ts's shape). */
const portmapDel: IptablesOp[] = [
  { op: "ipt.rule.delete", ...at, chain: "CNI-HOSTPORT-DNAT", rule: ENTRY, present: true },
  { op: "ipt.chain.remove", ...at, chain: "CNI-DN-1", present: true },
  { op: "ipt.chain.remove", ...at, chain: "CNI-SN-1" },
];

describe("renderIptOptimistic", () => {
  test("deletes the present rules, flushes and removes the present chain, and proves the other chain absent", () => {
    expect(renderIptOptimistic(portmapDel, 4)).toBe(
      [
        "*nat",
        "-D CNI-HOSTPORT-DNAT -p tcp -m comment --comment c1 -j CNI-DN-1",
        "-F CNI-DN-1",
        "-X CNI-DN-1",
        "-N CNI-SN-1",
        "-X CNI-SN-1",
        "COMMIT",
        "",
      ].join("\n"),
    );
  });

  test("ipMasq's DEL deletes the /32 jump and leaves the legacy jump to the chain's -X", () => {
    const ops = iptMasqTeardown([parseCIDR("198.18.0.5/24")!], "mynet", "ctr1");
    const out = renderIptOptimistic(ops, 4) ?? "";
    expect(out.split("\n").filter((l) => l.startsWith("-D"))).toEqual([
      `-D POSTROUTING -s 198.18.0.5/32 -m comment --comment "name: \\"mynet\\" id: \\"ctr1\\"" -j ${(ops[2] as { chain: string }).chain}`,
    ]);
    expect(out).toContain(`-X ${(ops[2] as { chain: string }).chain}\nCOMMIT`);
    // An IPv4-only attachment has nothing to guess in IPv6: no ip6tables-restore at all.
    expect(renderIptOptimistic(ops, 6)).toBeUndefined();
  });

  test("writes each rule and chain once, rules before chains whatever the order", () => {
    const ops: IptablesOp[] = [
      { op: "ipt.chain.remove", ...at, chain: "CNI-DN-1", present: true },
      { op: "ipt.rule.delete", ...at, chain: "CNI-HOSTPORT-DNAT", rule: ENTRY, present: true },
      { op: "ipt.rule.delete", ...at, chain: "CNI-HOSTPORT-DNAT", rule: ENTRY, present: true },
      { op: "ipt.chain.remove", ...at, chain: "CNI-DN-1", present: true },
    ];
    expect(renderIptOptimistic(ops, 4)).toBe(
      [
        "*nat",
        "-D CNI-HOSTPORT-DNAT -p tcp -m comment --comment c1 -j CNI-DN-1",
        "-F CNI-DN-1",
        "-X CNI-DN-1",
        "COMMIT",
        "",
      ].join("\n"),
    );
  });

  test("guesses nothing for a transaction that adds, or that marks nothing present", () => {
    expect(renderIptOptimistic([{ op: "ipt.chain.ensure", ...at, chain: "X" }, ...portmapDel], 4)).toBeUndefined();
    expect(renderIptOptimistic([{ op: "ipt.chain.remove", ...at, chain: "CNI-DN-1" }], 4)).toBeUndefined();
    expect(renderIptOptimistic([], 4)).toBeUndefined();
  });

  test("reads instead when an unmarked delete could be there without failing any -X", () => {
    const stray: IptablesOp = { op: "ipt.rule.delete", ...at, chain: "POSTROUTING", rule: ["-j", "ACCEPT"] };
    expect(renderIptOptimistic([...portmapDel, stray], 4)).toBeUndefined();
    const toOther: IptablesOp = { ...stray, rule: ["-j", "CNI-ELSEWHERE"] };
    expect(renderIptOptimistic([...portmapDel, toOther], 4)).toBeUndefined();
  });

  test("leaves a built-in chain's removal to the read path, which refuses it", () => {
    expect(
      renderIptOptimistic([...portmapDel, { op: "ipt.chain.remove", ...at, chain: "POSTROUTING", present: true }], 4),
    ).toBeUndefined();
  });

  test("writes one block per table, in first-use order", () => {
    const ops: IptablesOp[] = [
      {
        op: "ipt.rule.delete",
        family: 4,
        table: "filter",
        chain: "CNI-FORWARD",
        rule: ["-s", "198.18.0.5/32", "-j", "ACCEPT"],
        present: true,
      },
      ...portmapDel,
    ];
    expect(
      renderIptOptimistic(ops, 4)
        ?.split("\n")
        .filter((l) => l.startsWith("*")),
    ).toEqual(["*filter", "*nat"]);
  });
});
