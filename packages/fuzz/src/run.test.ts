import { describe, expect, test } from "bun:test";
import { convertResult, type Result } from "@tscni/spec";
import { type ConfigCase, configTarget, configTargetWith } from "./targets/config.ts";
import { convertTarget } from "./targets/convert.ts";
import { replay, runTarget } from "./run.ts";

// A short fixed-seed slice of each target, so the harness itself is tested in CI (issue 15).
describe("the fuzz targets on a short fixed-seed slice", () => {
  test("config: 1,500 cases of valid, near-valid, hostile and mutated configs find nothing", () => {
    const r = runTarget(configTarget, { seed: 42, cases: 1500 });
    expect(r.failureList).toEqual([]);
    expect(r.cases).toBe(1500);
  });

  test("convert: 1,500 cases over all version pairs find nothing", () => {
    const r = runTarget(convertTarget(), { seed: 42, cases: 1500 });
    expect(r.failureList).toEqual([]);
    expect(r.cases).toBe(1500);
  });
});

describe("the harness finds, shrinks and replays a planted bug", () => {
  // A converter that drops the DNS of any result it converts to 1.x.
  const dropsDns = (r: Result, to: string): Result => {
    const out = convertResult(r, to) as Result & { dns?: unknown };
    if (to.startsWith("1.") && r.cniVersion !== to && out.dns !== undefined) {
      const { dns: _dropped, ...rest } = out;
      return rest as Result;
    }
    return out;
  };

  test("a converter that drops a field is found, shrunk to a small case, and replays", () => {
    const target = convertTarget(dropsDns);
    const r = runTarget(target, { seed: 7, cases: 3000, maxFailures: 1 });
    expect(r.failureList.length).toBe(1);
    const [f] = r.failureList;
    expect(f?.failure).toMatch(/trip|label/);
    expect(f?.shrinks).toBeGreaterThan(0);
    // Shrunk: the minimal result carries little beyond the dns that exposes the bug.
    expect(JSON.stringify(f?.input).length).toBeLessThan(300);
    expect(replay(target, f?.input)).toBe(f?.failure);
    // The real converter holds on the same case.
    expect(replay(convertTarget(), f?.input)).toBeUndefined();
  });

  test("a parser that throws a plain Error is a failure, a CniError is not", () => {
    const base = configTarget;
    const planted = {
      ...base,
      check: (c: ConfigCase) => (c.bytes.length > 40 ? "planted: TypeError: x is undefined" : base.check(c)),
    };
    const r = runTarget(planted, { seed: 3, cases: 200, maxFailures: 1 });
    expect(r.failureList[0]?.failure).toBe("planted: TypeError: x is undefined");
    expect(planted.load(r.failureList[0]?.input).bytes.length).toBeGreaterThan(40);
  });

  test("a plugin decoder that crashes (a TypeError) is found and shrunk; one that reports a CniError or plain Error is not", () => {
    const decoding = (crash: boolean) => ({
      types: ["bridge", "ptp"],
      decode(type: string, stdin: Uint8Array) {
        const text = new TextDecoder().decode(stdin);
        if (crash && type === "bridge" && text.includes('"mtu"')) throw new TypeError("mtu is not a function");
        if (text.includes("x")) throw new Error("a plain error, reported as code 999");
        return text;
      },
    });
    const r = runTarget(configTargetWith(decoding(true)), { seed: 5, cases: 1500, maxFailures: 1 });
    expect(r.failureList[0]?.failure).toMatch(/^bridge config: TypeError: mtu is not a function/);
    expect(r.failureList[0]?.shrinks).toBeGreaterThan(0);
    expect(runTarget(configTargetWith(decoding(false)), { seed: 5, cases: 400 }).failureList).toEqual([]);
  });
});
