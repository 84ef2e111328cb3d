/**
 * `cni fuzz convert --against CMD`: results (valid and hostile) of the chosen versions,
 * converted to each chosen version by us (parseResult + convertResult + resultToWire, as
 * a runtime reading a result does) and by the other side, which reads
 * `{"result": <result>, "to": "<version>"}` lines (scripts/compat/go/convert speaks it).
 */
import fc from "fast-check";
import { result020, result040, result100 } from "@tscni/spec/arbitraries";
import { CniError, convertResult, parseResult, resultFamily, resultToWire, VERSIONS } from "@tscni/spec";
import { anyLeaf, jsonText } from "../json.ts";
import { CONVERT_ALLOWANCES } from "./convert-allowances.ts";
import { describeThrown } from "../target.ts";
import { RESULT_KEYS } from "../targets/convert.ts";
import type { Answer } from "./answer.ts";
import type { Differential } from "./differential.ts";
import { withoutNewerFields } from "./old-library.ts";

/** One differential conversion case. */
export interface AgainstConvertCase {
  readonly result: unknown;
  readonly to: string;
}

const resultKey = fc.constantFrom(...RESULT_KEYS, "nameservers", "domain");

const asJson = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** A valid result labelled with one of `versions`, holding only the fields those versions have. */
function validResult(versions: readonly string[]): fc.Arbitrary<unknown> {
  const newest = versions.includes("1.1.0");
  return fc.constantFrom(...versions).chain((from) => {
    const family = resultFamily(from);
    const arb: fc.Arbitrary<object> =
      family === "020" ? fc.oneof(result020(), result020(true)) : family === "040" ? result040() : result100();
    return arb.map((r) => {
      const labelled = { ...asJson(r), cniVersion: from };
      return newest ? labelled : withoutNewerFields(labelled);
    });
  });
}

/** A hostile result, JSON of any shape with result keys, sometimes labelled with a chosen version. */
function hostileResult(versions: readonly string[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(jsonText(anyLeaf, resultKey, 4), fc.option(fc.constantFrom(...versions), { nil: undefined }))
    .map(([text, v]) => {
      const value = JSON.parse(text) as unknown;
      if (v === undefined || value === null || typeof value !== "object" || Array.isArray(value)) return value;
      return { ...(value as object), cniVersion: v };
    });
}

/**
 * A near-valid result: a valid one with one field, at the top or inside its first IP,
 * route or interface, set to hostile JSON or removed, where the two sides' parsers are
 * most likely to part.
 */
function nearValidResult(versions: readonly string[]): fc.Arbitrary<unknown> {
  const place = fc.constantFrom("", "ips", "routes", "interfaces", "ip4", "ip6", "dns");
  const value = fc.option(jsonText(anyLeaf, resultKey, 2), { nil: undefined, freq: 5 });
  return fc.tuple(validResult(versions), place, resultKey, value).map(([r, where, key, text]) => {
    const out = asJson(r) as Record<string, unknown>;
    const holder = where === "" ? out : out[where];
    const target = (Array.isArray(holder) ? holder[0] : holder) as Record<string, unknown> | undefined;
    if (target === undefined || target === null || typeof target !== "object") return out;
    if (text === undefined) delete target[key];
    else target[key] = JSON.parse(text) as unknown;
    return versions.includes("1.1.0") ? out : withoutNewerFields(out);
  });
}

/** Our answer, in process: what a runtime reading `result` and converting it gets. */
export function ourConversion(c: AgainstConvertCase): Answer {
  try {
    return { result: resultToWire(convertResult(parseResult(JSON.stringify(c.result)), c.to)) };
  } catch (e) {
    return e instanceof CniError ? { error: e.message } : { broken: describeThrown(e) };
  }
}

/**
 * The convert differential over `versions` (default: all seven); generated results and
 * target versions come only from those, so an older implementation is asked only what
 * it knows (Debian's libcni v1.1 predates 1.1.0).
 */
export function againstConvert(versions: readonly string[] = VERSIONS): Differential<AgainstConvertCase> {
  // Mostly a chosen version; now and then "" (§3.7: means 0.1.0) or one nobody knows.
  const to = fc.oneof(
    { arbitrary: fc.constantFrom(...versions), weight: 12 },
    { arbitrary: fc.constantFrom("", "9.9.9", "1.0"), weight: 1 },
  );
  return {
    name: "convert",
    summary: `results of ${versions.join(", ")} converted to each of them, ours against the other side's`,
    arbitrary: fc.oneof(
      { arbitrary: fc.record({ result: validResult(versions), to }), weight: 3 },
      { arbitrary: fc.record({ result: nearValidResult(versions), to }), weight: 2 },
      { arbitrary: fc.record({ result: hostileResult(versions), to }), weight: 1 },
    ),
    request: (c) => ({ result: c.result, to: c.to }),
    ours: ourConversion,
    comparable: (a) => ("result" in a ? a.result : a),
    label: (c) => {
      const r = c.result as { cniVersion?: unknown } | null;
      const from = r !== null && typeof r === "object" && typeof r.cniVersion === "string" ? r.cniVersion : "?";
      return `convert ${JSON.stringify(from)} -> ${JSON.stringify(c.to)}`;
    },
    allowances: CONVERT_ALLOWANCES,
    save: (c) => c,
    load: (saved) => saved as AgainstConvertCase,
  };
}
