/**
 * Result conversion (SPEC.md §3.7) compared with the reference library: a Go program
 * (go/convert) converts with libcni's `create.CreateFromBytes(...).GetAsVersion(to)`,
 * we convert with `parseResult` + `convertResult` + `resultToWire` in process (and a
 * handful through `cni convert`), for every ordered pair of the six versions the
 * Debian libcni (v1.1) knows, over generated results and hand-written edge cases.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CniError, convertResult, parseResult, resultToWire } from "@tscni/spec";
import { result020, result040, result100 } from "@tscni/spec/arbitraries";
import { OUR_CNI, announceSkip, buildGo, canonical, missingReference, run } from "./_reference.ts";
import { EDGE_CASES, INVALID_CASES, OLD_LIB_VERSIONS, toOldLibrary } from "./_results.ts";

const skip = missingReference({ plugins: false });
announceSkip("convert.compat.test.ts", skip);

/** Generated results per source version; every one is converted to all six versions. */
const PER_VERSION = Number(process.env.TSCNI_COMPAT_RUNS ?? 120);
const SEED = Number(process.env.TSCNI_COMPAT_SEED ?? 20261121);

/** What one side answered: a result as a JSON object, or an error message. */
type Answer = { result: unknown } | { error: string };

interface Line {
  name: string;
  result: unknown;
  to: string;
}

function generated(): Line[] {
  const lines: Line[] = [];
  for (const from of OLD_LIB_VERSIONS) {
    const arb: fc.Arbitrary<object> =
      from.startsWith("0.1") || from.startsWith("0.2")
        ? fc.oneof(result020(), result020(true))
        : from === "1.0.0"
          ? result100()
          : result040();
    const samples = fc.sample(arb, { numRuns: PER_VERSION, seed: SEED + lines.length });
    samples.forEach((r, i) => {
      const result = toOldLibrary({ ...r, cniVersion: from });
      for (const to of OLD_LIB_VERSIONS) lines.push({ name: `generated ${from} #${i} (seed ${SEED})`, result, to });
    });
  }
  return lines;
}

function edges(): Line[] {
  return EDGE_CASES.flatMap((c) => OLD_LIB_VERSIONS.map((to) => ({ name: c.name, result: c.result, to })));
}

/** Our answer, in process: what a runtime reading `result` and converting it gets. */
function ours(line: Line): Answer {
  try {
    return { result: resultToWire(convertResult(parseResult(JSON.stringify(line.result)), line.to)) };
  } catch (err) {
    return { error: err instanceof CniError ? err.message : String(err) };
  }
}

/** The reference's answers for many lines, from one Go process. */
async function reference(lines: readonly Line[]): Promise<Answer[]> {
  const bin = buildGo("convert");
  const input = lines.map((l) => JSON.stringify({ result: l.result, to: l.to })).join("\n");
  const out = await run([bin], { stdin: `${input}\n` });
  if (out.code !== 0) throw new Error(`the Go converter failed: ${out.stderr}`);
  return out.stdout
    .trimEnd()
    .split("\n")
    .map((text) => {
      const value = JSON.parse(text) as Record<string, unknown>;
      return typeof value.error === "string" ? { error: value.error } : { result: value };
    });
}

/**
 * An answer with what only the library version changes taken out: libcni v1.1 prints
 * `"dns":{}` on 1.0.0 results (its `omitempty` does not omit a struct), v1.3 and we
 * leave the empty `dns` out (§3.4).
 */
function comparable(answer: Answer): unknown {
  if ("error" in answer) return { error: answer.error };
  const r = answer.result as Record<string, unknown>;
  if (r.cniVersion === "1.0.0" && JSON.stringify(r.dns) === "{}") {
    const { dns: _, ...rest } = r;
    return { result: canonical(rest) };
  }
  return { result: canonical(r) };
}

function disagreements(lines: readonly Line[], theirs: readonly Answer[], mine: readonly Answer[]): string[] {
  const out: string[] = [];
  lines.forEach((line, i) => {
    const a = comparable(mine[i] ?? { error: "no answer" });
    const b = comparable(theirs[i] ?? { error: "no answer" });
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push(
        `${line.name} -> ${line.to}\n  input: ${JSON.stringify(line.result)}\n  ours:  ${JSON.stringify(a)}\n  go:    ${JSON.stringify(b)}`,
      );
    }
  });
  return out;
}

describe.skipIf(skip !== undefined)("result conversion agrees with libcni", () => {
  test("for every ordered pair of 0.1.0..1.0.0 over generated results", async () => {
    const lines = generated();
    expect(lines.length).toBe(OLD_LIB_VERSIONS.length * OLD_LIB_VERSIONS.length * PER_VERSION);
    const theirs = await reference(lines);
    const diff = disagreements(lines, theirs, lines.map(ours));
    expect(diff.slice(0, 5).join("\n")).toBe("");
    expect(diff.length).toBe(0);
    // Most conversions succeed; the rest fail the same way (no IP left below 0.3.0).
    expect(theirs.filter((a) => "result" in a).length).toBeGreaterThan(lines.length / 2);
  }, 120_000);

  test("for every ordered pair over the hand-written edge cases (CV-1, CV-2, R04-2)", async () => {
    const lines = edges();
    const theirs = await reference(lines);
    expect(disagreements(lines, theirs, lines.map(ours)).join("\n")).toBe("");
    // The edge cases do reach both outcomes, the error included.
    expect(theirs.some((a) => "error" in a && a.error === "cannot convert: no valid IP addresses")).toBe(true);
    expect(theirs.filter((a) => "result" in a).length).toBeGreaterThan(lines.length / 2);
  });

  test("malformed results fail on both sides, with the reference's message inside ours", async () => {
    const lines = INVALID_CASES.map((c) => ({ name: c.name, result: c.result, to: "0.4.0" }));
    const theirs = await reference(lines);
    INVALID_CASES.forEach((c, i) => {
      const mine = ours(lines[i] as Line);
      expect({ case: c.name, go: theirs[i] }).toEqual({
        case: c.name,
        go: { error: expect.stringContaining(c.goMessage) },
      });
      expect({ case: c.name, ours: mine }).toEqual({
        case: c.name,
        ours: { error: expect.stringContaining(c.goMessage) },
      });
    });
  });

  test('a route without dst: libcni prints it as "<nil>", we refuse it ([DIFF], R-1)', async () => {
    const line = {
      name: "route without dst",
      result: { cniVersion: "1.0.0", ips: [{ address: "198.18.0.5/24" }], routes: [{ gw: "198.18.0.1" }] },
      to: "0.4.0",
    };
    const [theirs] = await reference([line]);
    expect(theirs).toEqual({ result: expect.objectContaining({ routes: [{ dst: "<nil>", gw: "198.18.0.1" }] }) });
    expect(ours(line)).toEqual({ error: expect.stringContaining('missing required field "dst"') });
  });

  test("through the compiled binary: cni convert --to prints what libcni converts to", async () => {
    const lines = EDGE_CASES.slice(0, 6).flatMap((c) =>
      ["0.2.0", "0.4.0", "1.0.0"].map((to) => ({ name: c.name, result: c.result, to })),
    );
    const theirs = await reference(lines);
    const mine: Answer[] = [];
    for (const line of lines) {
      const out = await run([OUR_CNI, "convert", "--to", line.to], { stdin: JSON.stringify(line.result) });
      const value = JSON.parse(out.stdout) as Record<string, unknown>;
      mine.push(
        out.code === 0
          ? { result: value }
          : { error: String(value.msg) + (value.details ? `; ${String(value.details)}` : "") },
      );
    }
    expect(disagreements(lines, theirs, mine).join("\n")).toBe("");
  });
});
