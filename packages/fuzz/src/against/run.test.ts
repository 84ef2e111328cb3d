import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Answer } from "./answer.ts";
import { ourConversion, againstConvert, type AgainstConvertCase } from "./convert.ts";
import type { Differential } from "./differential.ts";
import { againstTarget, runAgainst } from "./run.ts";

/** A tiny differential: ours echoes {n}; the command is sed, which refuses n >= 500 (planted). */
const echo: Differential<{ n: number; pad: string }> = {
  name: "echo",
  summary: "echo",
  arbitrary: fc.record({ n: fc.nat(999), pad: fc.string({ maxLength: 4 }) }),
  request: (c) => ({ n: c.n }),
  ours: (c) => ({ result: { n: c.n } }),
  comparable: (a) => ("result" in a ? a.result : a),
  label: () => "echo",
  allowances: [],
  save: (c) => c,
  load: (s) => s as { n: number; pad: string },
};
const PLANTED_SED = `sed -E 's/^\\{"n":([5-9][0-9]{2})\\}$/{"error":"too big"}/'`;

describe("the differential harness against a command", () => {
  test("finds a planted disagreement in a command's answers, shrinks it to the boundary, and replays it", () => {
    const r = runAgainst(echo, PLANTED_SED, { seed: 5, cases: 400, chunk: 200 });
    expect(r.cases).toBe(400);
    expect(r.failureList.map((f) => f.failure)).toEqual(["echo: ours result, theirs error (too big)"]);
    const [f] = r.failureList;
    // Shrunk to the smallest case the planted rule refuses.
    expect(f?.input).toEqual({ n: 500, pad: "" });
    expect(f?.shrinks).toBeGreaterThan(0);
    expect(r.against).toBe(PLANTED_SED);
    expect(againstTarget(echo, PLANTED_SED).check(f?.input as { n: number; pad: string })).toBe(f?.failure);
    // A faithful command agrees everywhere.
    expect(runAgainst(echo, "cat", { seed: 5, cases: 400, chunk: 200 }).failureList).toEqual([]);
  });
});

describe("the convert differential", () => {
  // A stand-in other side: our converter, except that it drops the dns of 1.x results with nameservers.
  const dropsDns = {
    command: "(planted: drops dns)",
    ask: (requests: readonly unknown[]): Answer[] =>
      requests.map((req) => {
        const a = ourConversion(req as AgainstConvertCase);
        if (!("result" in a)) return a;
        const r = a.result as { cniVersion?: string; dns?: { nameservers?: unknown } };
        if (!r.cniVersion?.startsWith("1.") || r.dns?.nameservers === undefined) return a;
        const { dns: _dropped, ...rest } = r;
        return { result: rest };
      }),
  };

  test("ours against itself agrees on every case, hostile ones included", () => {
    const self = {
      command: "(ours)",
      ask: (rs: readonly unknown[]) => rs.map((q) => ourConversion(q as AgainstConvertCase)),
    };
    const r = runAgainst(againstConvert(), self, { seed: 42, cases: 400 });
    expect(r.failureList).toEqual([]);
    expect(r.cases).toBe(400);
  });

  test("a converter that drops a field is found and shrunk to a small case that replays", () => {
    const d = againstConvert();
    const r = runAgainst(d, dropsDns, { seed: 7, cases: 1000, maxFailures: 1 });
    expect(r.failureList.length).toBe(1);
    const [f] = r.failureList;
    expect(f?.failure).toMatch(/results differ at \$\.dns \(only ours\)/);
    expect(f?.shrinks).toBeGreaterThan(0);
    expect(JSON.stringify(f?.input).length).toBeLessThan(120);
    expect(againstTarget(d, dropsDns).check(d.load(f?.input))).toBe(f?.failure);
  });
});
