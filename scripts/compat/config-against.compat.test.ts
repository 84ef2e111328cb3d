/**
 * `cni fuzz config --against` (issue 15) against libcni's config parsers (go/confparse:
 * ConfFromBytes and ConfListFromBytes of Debian's libcni v1.1): a short fixed-seed slice
 * agrees up to the named allowances of @tscni/fuzz.
 *
 * The class it once reported, go-folded-or-repeated-keys, is fixed: Go's encoding/json
 * matches a plugin config's keys to the NetConf fields case-insensitively and decodes
 * EVERY occurrence (`{"nAmE":0,"name":"a","type":"x"}` is refused), which our loader now
 * does too (@tscni/config `_every-occurrence.ts`); the second test keeps it fixed.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { againstConfig, runAgainst } from "@tscni/fuzz";
import { announceSkip, buildGo, missingReference } from "./_reference.ts";

const skip = missingReference({ plugins: false, ours: false });
announceSkip("config-against.compat.test.ts", skip);

const CASES = Number(process.env.TSCNI_COMPAT_RUNS ?? 1000);
const SEED = Number(process.env.TSCNI_COMPAT_SEED ?? 20261125);

/**
 * Plugin objects made of NetConf keys in random letter case (the long s too), repeated,
 * with values of every JSON kind, alone or as a list's plugin. `cni.dev/valid-attachments`
 * is left out: v1.1's NetConf has no such field (PC-6 follows libcni v1.2+).
 */
const FIELDS = ["cniVersion", "name", "type", "capabilities", "ipam", "dns", "prevResult", "other"];
const spelling = (key: string) =>
  fc
    .array(fc.boolean(), { minLength: key.length, maxLength: key.length })
    .map((up) =>
      [...key].map((c, i) => (up[i] ? (c === "s" && i % 3 === 0 ? "\u017f" : c.toUpperCase()) : c)).join(""),
    );
const value = fc.constantFrom(
  ...['"a"', '"b"', '""', '"1.0.0"', "0", "1e400", "true", "null", "[]", '["x",1]', "{}", '{"type":"y"}'],
  ...['{"TYPE":1}', '{"a":true,"a":"x"}', '{"nameservers":[1],"Domain":"d"}', '{"search":["s"],"SEARCH":null}'],
);
const entry = fc
  .constantFrom(...FIELDS)
  .chain((k) => fc.tuple(spelling(k), value))
  .map(([k, v]) => `${JSON.stringify(k)}:${v}`);
const foldedOrRepeated = fc
  .tuple(fc.array(entry, { minLength: 1, maxLength: 6 }), fc.boolean())
  .map(([entries, list]) => {
    const doc = `{${entries.join(",")}}`;
    return { bytes: new TextEncoder().encode(list ? `{"name":"l","plugins":[${doc}]}` : doc), list };
  });

describe.skipIf(skip !== undefined)("cni fuzz config --against libcni's config parsers", () => {
  test("a fixed-seed slice agrees, up to the named allowances", () => {
    const report = runAgainst(againstConfig(), buildGo("confparse"), { seed: SEED, cases: CASES, maxFailures: 20 });
    expect(report.cases).toBe(CASES);
    expect(report.failureList.map((f) => `${f.failure}\n  ${JSON.stringify(f.input).slice(0, 400)}`)).toEqual([]);
    expect(report.allowed["list-without-plugins"]).toBeGreaterThan(0);
  }, 120_000);

  test("a fixed-seed slice of repeated and case-folded NetConf keys agrees", () => {
    const report = runAgainst({ ...againstConfig(), arbitrary: foldedOrRepeated }, buildGo("confparse"), {
      seed: SEED,
      cases: CASES,
      maxFailures: 5,
    });
    expect(report.cases).toBe(CASES);
    expect(report.failureList.map((f) => `${f.failure}\n  ${JSON.stringify(f.input).slice(0, 400)}`)).toEqual([]);
  }, 120_000);

  test("both sides agree on repeated keys and keys in another letter case (the class once open)", () => {
    const bin = buildGo("confparse");
    const ask = (text: string, list = false) =>
      runAgainst(
        {
          ...againstConfig(),
          arbitrary: againstConfig().arbitrary.map(() => ({ bytes: new TextEncoder().encode(text), list })),
        },
        bin,
        { seed: 1, cases: 1 },
      ).failureList.map((f) => f.failure);
    // The minimal inputs of the finding: libcni refuses both, for the EARLIER occurrence.
    expect(ask('{"nAmE":0,"name":"a","type":"x"}')).toEqual([]);
    expect(ask('{"cniVersion":0,"cniVersion":"1.0.0","type":"x"}')).toEqual([]);
    // Which occurrence wins: null keeps a string, the last spelling wins in a file, the one
    // that sorts last in a list (libcni re-encodes each plugin from a map).
    expect(ask('{"name":"a","NAME":null,"type":"x"}')).toEqual([]);
    expect(ask('{"type":"a","Type":"b","TYPE":"c"}')).toEqual([]);
    expect(ask('{"name":"l","plugins":[{"type":"a","Type":"b"}]}', true)).toEqual([]);
    expect(ask('{"name":"l","plugins":[{"nAmE":0,"name":"a","type":"x"}]}', true)).toEqual([]);
    expect(ask('{"name":"l","plugins":[{"name":0,"name":"a","type":"x"}]}', true)).toEqual([]);
    // Nested structs, the capabilities map and the long s (Go folds it onto s).
    expect(ask('{"type":"x","ipam":{"type":1},"IPAM":{"type":"y"}}')).toEqual([]);
    expect(ask('{"type":"x","capabilities":{"a":"y","a":true}}')).toEqual([]);
    expect(ask('{"type":"x","dns":{"search":[1]},"dns":{}}')).toEqual([]);
    expect(ask('{"type":"x","cniVersion":"1.0.0","cniVer\u017fion":0}')).toEqual([]);
  });
});
