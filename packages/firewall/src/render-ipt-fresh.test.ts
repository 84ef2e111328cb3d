import { describe, expect, test } from "bun:test";
import type { IptablesOp, IptRule } from "./ops.ts";
import { renderIptFresh } from "./render-ipt-fresh.ts";

const at = { family: 4, table: "nat" } as const;
const JUMP: IptRule = ["-m", "addrtype", "--dst-type", "LOCAL", "-j", "CNI-HOSTPORT-DNAT"];
const ENTRY: IptRule = ["-p", "tcp", "-m", "comment", "--comment", "c1", "-j", "CNI-DN-1"];
const DNAT: IptRule = ["-p", "tcp", "-m", "tcp", "--dport", "8080", "-j", "DNAT", "--to-destination", "198.18.0.5:80"];

/** portmap's ADD for one container as plan-iptables.ts lays it out (shared chain, entries, own chain). */
const add: IptablesOp[] = [
  { op: "ipt.chain.ensure", ...at, chain: "CNI-HOSTPORT-DNAT" },
  { op: "ipt.rule.append", ...at, chain: "PREROUTING", rule: JUMP },
  { op: "ipt.rule.append", ...at, chain: "OUTPUT", rule: JUMP },
  { op: "ipt.chain.ensure", ...at, chain: "CNI-DN-1", fresh: true },
  { op: "ipt.rule.append", ...at, chain: "CNI-DN-1", rule: DNAT },
  { op: "ipt.rule.append", ...at, chain: "CNI-DN-1", rule: DNAT },
  { op: "ipt.rule.append", ...at, chain: "CNI-HOSTPORT-DNAT", rule: ENTRY },
];

describe("renderIptFresh", () => {
  test("checks the shared rules, creates the fresh chain and writes its rules and the jumps to it, each once", () => {
    expect(renderIptFresh(add, 4)?.input).toBe(
      [
        "*nat",
        "-C PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT",
        "-C OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT",
        "-N CNI-DN-1",
        "-A CNI-DN-1 -p tcp -m tcp --dport 8080 -j DNAT --to-destination 198.18.0.5:80",
        "-A CNI-HOSTPORT-DNAT -p tcp -m comment --comment c1 -j CNI-DN-1",
        "COMMIT",
        "",
      ].join("\n"),
    );
  });

  test("takes back exactly what it wrote: the jumps first, then the fresh chain", () => {
    expect(renderIptFresh(add, 4)?.undo).toBe(
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

  test("needs a read when nothing in the transaction is fresh, for another family, or for a deletion", () => {
    expect(
      renderIptFresh(
        add.map((o) => (o.op === "ipt.chain.ensure" ? { ...o, fresh: false } : o)),
        4,
      ),
    ).toBeUndefined();
    expect(renderIptFresh(add, 6)).toBeUndefined();
    expect(renderIptFresh([...add, { op: "ipt.rule.delete", ...at, chain: "OUTPUT", rule: JUMP }], 4)).toBeUndefined();
  });

  test("needs a read when a shared chain it ensures is proven by no rule of the transaction", () => {
    expect(renderIptFresh([{ op: "ipt.chain.ensure", ...at, chain: "CNI-SHARED" }, ...add], 4)).toBeUndefined();
  });
});
