/**
 * encodeOp for macvlan, ipvlan, vlan-into and dummy against iproute2, byte for byte as the
 * kernel reads it (fixtures/canonical.ts): each request in fixtures/iproute2-sublinks.json
 * was captured from `ip` running the line our Linux driver would run for the same op
 * (fixtures/capture-sublinks.ts). The kinds this kernel lacks were captured all the same:
 * iproute2 sends the request and the kernel answers "Unknown device type".
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { KernelOp } from "../ops.ts";
import { renderOp } from "../lines.ts";
import { encodeOp, Refused } from "./encode.ts";
import { canonical } from "./fixtures/canonical.ts";
import { SUBLINK_SEQUENCE, TARGET } from "./fixtures/sequence-sublinks.ts";

type Case = {
  op: Exclude<KernelOp, { op: "sysctl.set" }>;
  line: string;
  indexes: Record<string, number>;
  nsFd?: number;
  request: string;
  answer: string;
};
const golden = JSON.parse(readFileSync(new URL("./fixtures/iproute2-sublinks.json", import.meta.url), "utf8")) as {
  iproute2: string;
  cases: Case[];
};

function encoded(c: Case): Uint8Array {
  return encodeOp(c.op, {
    index(name: string): number {
      const i = c.indexes[name];
      if (i === undefined) throw new Refused(`Cannot find device "${name}"`);
      return i;
    },
    nsFd(ns: string): number {
      if (ns !== TARGET || c.nsFd === undefined) throw new Error(`unexpected namespace ${ns}`);
      return c.nsFd;
    },
  }).build(0);
}

/** iproute2 sends `0.0.0.0`-free kinds without their NUL; canonical() strips ours. */
const expected = (c: Case): string[] => {
  const [head = "", fixed = "", ...attrs] = canonical(Buffer.from(c.request, "hex"));
  return [head, fixed, ...attrs.sort()];
};

describe(`encodeOp sends sub-links as ${golden.iproute2.split(",")[1]?.trim() ?? "iproute2"} does`, () => {
  test("the fixture covers the sub-link sequence op by op", () => {
    expect(golden.cases.map((c) => c.op)).toEqual([...SUBLINK_SEQUENCE] as Case["op"][]);
  });

  for (const c of golden.cases) {
    test(`${c.line} is encoded as iproute2 encodes it (kernel said: ${c.answer})`, () => {
      expect(canonical(encoded(c))).toEqual(expected(c));
    });

    test(`${c.line} is the line the iproute2 driver runs for its op`, () => {
      expect(`ip ${renderOp(c.op, "/proc/1/ns/net").line}`).toBe(c.line);
    });
  }

  test("the kinds this kernel lacks are refused as an unknown device type, which the plugins report as Go does", () => {
    const refused = golden.cases.filter((c) => c.answer !== "ok").map((c) => c.op.op);
    expect(new Set(refused)).toEqual(new Set(["ipvlan.add", "vlan.add", "dummy.add"]));
  });
});
