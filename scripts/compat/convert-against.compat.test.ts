/**
 * `cni fuzz convert --against` (issue 15) against libcni's converter (go/convert: the
 * first `--against` implementation): a short fixed-seed slice over the six versions
 * Debian's libcni v1.1 knows agrees, every difference being one of the named allowances
 * of @tscni/fuzz; and the same run through the compiled `cni fuzz` command.
 */
import { describe, expect, test } from "bun:test";
import { againstConvert, CONVERT_ALLOWANCES, runAgainst } from "@tscni/fuzz";
import { announceSkip, buildGo, missingReference, OUR_CNI, run } from "./_reference.ts";
import { OLD_LIB_VERSIONS } from "./_results.ts";

const skip = missingReference({ plugins: false });
announceSkip("convert-against.compat.test.ts", skip);

const CASES = Number(process.env.TSCNI_COMPAT_RUNS ?? 1500);
const SEED = Number(process.env.TSCNI_COMPAT_SEED ?? 20261125);

describe.skipIf(skip !== undefined)("cni fuzz convert --against the libcni converter", () => {
  test("a fixed-seed slice over 0.1.0..1.0.0 agrees, up to the named allowances", () => {
    const report = runAgainst(againstConvert(OLD_LIB_VERSIONS), buildGo("convert"), { seed: SEED, cases: CASES });
    expect(report.failureList.map((f) => `${f.failure}\n  ${JSON.stringify(f.input).slice(0, 400)}`)).toEqual([]);
    expect(report.cases).toBe(CASES);
    // The allowances are reached (so they are exercised), and only named ones are used.
    const ids = CONVERT_ALLOWANCES.map((a) => a.id);
    expect(Object.keys(report.allowed).every((id) => ids.includes(id))).toBe(true);
    expect(report.allowed["go-v1.1-empty-dns-struct"]).toBeGreaterThan(0);
  }, 120_000);

  test("through the compiled binary: cni fuzz convert --against with --versions agrees and exits 0", async () => {
    const out = await run([
      OUR_CNI,
      "fuzz",
      "convert",
      "--against",
      buildGo("convert"),
      "--versions",
      OLD_LIB_VERSIONS.join(","),
      "--seed",
      "1",
      "--cases",
      "300",
    ]);
    expect(out.stdout).toMatch(/convert --against: 300 cases in [\d.]+ s, 0 disagreements \(seed 1\)\n$/);
    expect(out.code).toBe(0);
  }, 120_000);
});
