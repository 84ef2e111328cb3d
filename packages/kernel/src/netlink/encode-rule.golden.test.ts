/**
 * encodeRule / encodeVrf against iproute2, byte for byte: each request in
 * fixtures/rule-requests.json was captured from `ip rule ...` / `ip -6 rule ...` /
 * `ip link add NAME type vrf table N` running the line our Linux driver runs for the same
 * op (fixtures/capture-rules.ts, strace), even where this kernel refused it (no vrf kind).
 * Pure: compared as the kernel reads requests (fixtures/canonical.ts).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { KernelOp } from "../ops.ts";
import { encodeOp } from "./encode.ts";
import { canonical } from "./fixtures/canonical.ts";
import { RULE_SEQUENCE } from "./fixtures/rule-sequence.ts";

type Case = { op: Exclude<KernelOp, { op: "sysctl.set" }>; line: string; request: string; answer: string };
const golden = JSON.parse(readFileSync(new URL("./fixtures/rule-requests.json", import.meta.url), "utf8")) as { iproute2: string; cases: Case[] };

const noLinks = {
  index(name: string): number {
    throw new Error(`rule and vrf requests name no link by index (asked for "${name}")`);
  },
  nsFd(): number {
    throw new Error("no namespace fd either");
  },
};

describe(`rule and vrf requests are what ${golden.iproute2.split(",")[1]?.trim() ?? "iproute2"} sends`, () => {
  test("the fixture covers the rule sequence op by op", () => {
    expect(golden.cases.map((c): KernelOp => c.op)).toEqual([...RULE_SEQUENCE]);
  });

  test("the kernel accepted every rule request and refused the vrf ones for lack of the kind", () => {
    for (const c of golden.cases) expect(c.answer).toBe(c.op.op === "vrf.add" ? "Error: Unknown device type." : "ok");
  });

  for (const c of golden.cases) {
    test(`${c.line} is encoded as iproute2 encodes it, attribute for attribute`, () => {
      expect(canonical(encodeOp(c.op, noLinks).build(0))).toEqual(canonical(Buffer.from(c.request, "hex")));
    });
  }
});
