/**
 * encodeRule / encodeVrf against iproute2, byte for byte: each request in
 * fixtures/rule-requests.json was captured from `ip rule ...` / `ip -6 rule ...` /
 * `ip link add NAME type vrf table N` (and sbr's and vrf's `ip route replace ... proto
 * kernel` moves) running the line our Linux driver runs for the same
 * op (fixtures/capture-rules.ts, strace), even where this kernel refused it (no vrf kind).
 * Pure: compared as the kernel reads requests (fixtures/canonical.ts).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { KernelOp } from "../ops.ts";
import { encodeOp } from "./encode.ts";
import { canonical } from "./fixtures/canonical.ts";
import { RULE_SEQUENCE } from "./fixtures/rule-sequence.ts";

type Case = {
  op: Exclude<KernelOp, { op: "sysctl.set" }>;
  line: string;
  indexes: Record<string, number>;
  request: string;
  answer: string;
};
const golden = JSON.parse(readFileSync(new URL("./fixtures/rule-requests.json", import.meta.url), "utf8")) as {
  iproute2: string;
  cases: Case[];
};

/** The links of the capture's namespace at the time of the case, by name. */
const linksOf = (c: Case) => ({
  index(name: string): number {
    const i = c.indexes[name];
    if (i === undefined) throw new Error(`no link "${name}" when "${c.line}" was captured`);
    return i;
  },
  nsFd(): number {
    throw new Error("no golden op moves a link between namespaces");
  },
});

describe(`rule and vrf requests are what ${golden.iproute2.split(",")[1]?.trim() ?? "iproute2"} sends`, () => {
  test("the fixture covers the rule sequence op by op", () => {
    expect(golden.cases.map((c): KernelOp => c.op)).toEqual([...RULE_SEQUENCE]);
  });

  test("the kernel accepted every request but the vrf ones, refused for lack of the kind", () => {
    for (const c of golden.cases) expect(c.answer).toBe(c.op.op === "vrf.add" ? "Error: Unknown device type." : "ok");
  });

  for (const c of golden.cases) {
    test(`${c.line} is encoded as iproute2 encodes it, attribute for attribute`, () => {
      expect(canonical(encodeOp(c.op, linksOf(c)).build(0))).toEqual(canonical(Buffer.from(c.request, "hex")));
    });
  }
});
