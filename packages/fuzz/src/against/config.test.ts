import { describe, expect, test } from "bun:test";
import type { Answer } from "./answer.ts";
import { againstConfig, ourParse, type AgainstConfigCase } from "./config.ts";
import { judgeAnswers } from "./differential.ts";
import { againstTarget, runAgainst } from "./run.ts";

const b64 = (c: unknown) => {
  const { bytes, list } = c as { bytes: string; list: boolean };
  return { bytes: Uint8Array.from(Buffer.from(bytes, "base64")), list };
};
const enc = (s: string) => new TextEncoder().encode(s);

describe("the config differential", () => {
  test("a request carries the bytes as base64, and our answer holds the fields libcni's parse reports", () => {
    const d = againstConfig();
    const c = {
      bytes: enc('{"cniVersion":"1.0.0","name":"n","plugins":[{"type":"bridge"},{"type":"portmap"}]}'),
      list: true,
    };
    expect(b64(d.request(c))).toEqual(c);
    expect(ourParse(c)).toEqual({ result: { name: "n", cniVersion: "1.0.0", plugins: ["bridge", "portmap"] } });
    expect(ourParse({ bytes: enc('{"type":"bridge"}'), list: false })).toEqual({
      result: { name: "", type: "bridge", cniVersion: "" },
    });
    expect(ourParse({ bytes: enc("{"), list: false })).toMatchObject({ error: expect.any(String) });
  });

  test("list-without-plugins (§2.6 step 6) accepts only libcni v1.1's refusal of a list with no plugins key", () => {
    const d = againstConfig();
    const c = { bytes: enc('{"name":"n"}'), list: true };
    const theirs = { error: "error parsing configuration list: no 'plugins' key" };
    expect(judgeAnswers(d, c, ourParse(c), theirs)).toEqual({ agree: true, allowance: "list-without-plugins" });
    const withPlugins = { bytes: enc('{"name":"n","plugins":[{"type":"x"}]}'), list: true };
    expect(judgeAnswers(d, withPlugins, ourParse(withPlugins), theirs).agree).toBe(false);
  });

  test("a parser that drops a list's last plugin is found and replays", () => {
    // A stand-in other side: our parser, except that lists lose their last plugin.
    const dropsLast = {
      command: "(planted: drops the last plugin)",
      ask: (requests: readonly unknown[]): Answer[] =>
        requests.map((req) => {
          const a = ourParse(b64(req) as AgainstConfigCase);
          if (!("result" in a)) return a;
          const r = a.result as { plugins?: string[] };
          return r.plugins !== undefined && r.plugins.length > 0
            ? { result: { ...r, plugins: r.plugins.slice(0, -1) } }
            : a;
        }),
    };
    const d = againstConfig();
    const r = runAgainst(d, dropsLast, { seed: 9, cases: 300, maxFailures: 1 });
    expect(r.failureList.map((f) => f.failure)).toEqual(["config list: results differ at $.plugins[] (length)"]);
    const [f] = r.failureList;
    expect(againstTarget(d, dropsLast).check(d.load(f?.input))).toBe(f?.failure);
    expect(
      runAgainst(d, { command: "(ours)", ask: (rs) => rs.map((q) => ourParse(b64(q))) }, { seed: 9, cases: 300 })
        .failureList,
    ).toEqual([]);
  });
});
