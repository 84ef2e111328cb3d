import { describe, expect, test } from "bun:test";
import { againstConvert } from "./convert.ts";
import { judgeAnswers } from "./differential.ts";

const d = againstConvert(["0.4.0", "1.0.0"]);
const c = { result: { cniVersion: "1.0.0" }, to: "1.0.0" };

describe("how two answers are judged (issue 15, --against)", () => {
  test("two errors agree whatever their messages say", () => {
    expect(judgeAnswers(d, c, { error: "a" }, { error: "b" })).toEqual({ agree: true });
  });

  test("two results agree when their JSON is equal with keys sorted, and disagree on any other difference", () => {
    const a = { result: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.2/24", gateway: "198.18.0.1" }] } };
    const b = { result: { ips: [{ gateway: "198.18.0.1", address: "198.18.0.2/24" }], cniVersion: "1.0.0" } };
    expect(judgeAnswers(d, c, a, b)).toEqual({ agree: true });
    const other = { result: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.2/24" }] } };
    expect(judgeAnswers(d, c, a, other)).toEqual({
      agree: false,
      why: 'convert "1.0.0" -> "1.0.0": results differ at $.ips[].gateway (only ours)',
    });
  });

  test("a result against an error, or a broken answer on either side, is a disagreement", () => {
    expect(judgeAnswers(d, c, { result: {} }, { error: "x" })).toMatchObject({
      agree: false,
      why: expect.stringMatching(/ours result, theirs error/),
    });
    expect(judgeAnswers(d, c, { error: "x" }, { broken: "no answer line" })).toMatchObject({
      agree: false,
      why: expect.stringMatching(/ours error, theirs broken \(no answer line\)/),
    });
  });

  test("a named allowance accepts exactly its deviation and says which it was", () => {
    // go-v1.1-empty-dns-struct (§3.4): libcni v1.1 prints "dns":{} on a 1.0.0 result.
    const ours = { result: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.2/24" }] } };
    const theirs = { result: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.2/24" }], dns: {} } };
    expect(judgeAnswers(d, c, ours, theirs)).toEqual({ agree: true, allowance: "go-v1.1-empty-dns-struct" });
    // The same empty dns with any other difference is not covered.
    const more = { result: { ...theirs.result, ips: [{ address: "198.18.0.3/24" }] } };
    expect(judgeAnswers(d, c, ours, more).agree).toBe(false);
    // missing-prefix-field: we refuse a route without dst, libcni prints "<nil>".
    const noDst = { error: 'invalid result: routes[0].dst: missing required field "dst"' };
    expect(judgeAnswers(d, c, noDst, { result: { routes: [{ dst: "<nil>" }] } })).toEqual({
      agree: true,
      allowance: "missing-prefix-field",
    });
    expect(judgeAnswers(d, c, { error: "invalid result: something else" }, { result: {} }).agree).toBe(false);
  });
});
