/**
 * `cni fuzz convert`: result parsing and conversion across all 49 version pairs (§3.7),
 * with invariants: converting to the result's own version is the identity, within a
 * family only the label changes, a 0.1.0/0.2.0 result survives a trip up and back; and
 * hostile input only ever fails with a CniError (version 1, decoding 6, invalid 7).
 */
import fc from "fast-check";
import { anyResult, result020 } from "@tscni/spec/arbitraries";
import { convertResult, parseResult, resultFamily, VERSIONS, type Result } from "@tscni/spec";
import { jsonText, anyLeaf } from "../json.ts";
import { judge, type Target } from "../target.ts";

/** One case: a result-like value and the version to convert it to. */
export interface ConvertCase {
  result: unknown;
  to: string;
  /** The result is valid (parseResult must take it). */
  valid: boolean;
  /** The result is a 0.1.0/0.2.0 one that every later version can express (a round trip holds). */
  trip: boolean;
}

/** The keys results are made of, for hostile results that still look like one. */
export const RESULT_KEYS = [
  "cniVersion",
  "ips",
  "ip4",
  "ip6",
  "interfaces",
  "routes",
  "dns",
  "ip",
  "gateway",
  "interface",
  "version",
  "address",
  "dst",
  "gw",
  "mtu",
  "mac",
  "sandbox",
] as const;
const resultKey = fc.constantFrom(...RESULT_KEYS, "__proto__");
const hostileResult = jsonText(anyLeaf, resultKey, 4).map((t) => JSON.parse(t) as unknown);

const asJson = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** Results compare by their JSON forms. */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The convert target; `convert` is replaceable so the harness itself can be tested. */
export function convertTarget(convert: (r: Result, to: string) => Result = convertResult): Target<ConvertCase> {
  return {
    name: "convert",
    summary: "results of every version through parseResult and convertResult, with invariants",
    arbitrary: fc.oneof(
      {
        arbitrary: fc
          .tuple(anyResult, fc.constantFrom(...VERSIONS))
          .map(([r, to]) => ({ result: asJson(r), to, valid: true, trip: false })),
        weight: 3,
      },
      {
        arbitrary: fc
          .tuple(result020(true), fc.constantFrom(...VERSIONS))
          .map(([r, to]) => ({ result: asJson(r), to, valid: true, trip: true })),
        weight: 1,
      },
      {
        arbitrary: fc
          .tuple(hostileResult, fc.constantFrom(...VERSIONS, "", "9.9.9"))
          .map(([result, to]) => ({ result, to, valid: false, trip: false })),
        weight: 2,
      },
    ),
    check({ result, to, valid, trip }) {
      const parsed = judge("parseResult", [1, 6, 7], () => parseResult(result));
      if (parsed.failure !== undefined) return parsed.failure;
      const r = parsed.value as Result | undefined;
      if (r === undefined) return valid ? "parseResult refused a valid result" : undefined;
      const own = judge("convertResult to its own version", [1], () => convert(r, r.cniVersion));
      if (own.failure !== undefined) return own.failure;
      if (!same(own.value, r)) return `converting to its own version ${r.cniVersion} changed the result`;
      const conv = judge(`convertResult ${r.cniVersion} -> ${to}`, [1], () => convert(r, to));
      if (conv.failure !== undefined) return conv.failure;
      const out = conv.value as Result | undefined;
      if (out === undefined) return undefined;
      // "" converts to the 0.1.0 format, labelled as the converter chooses (R02-3).
      if (to !== "" && out.cniVersion !== to)
        return `convertResult ${r.cniVersion} -> ${to} labelled it ${out.cniVersion}`;
      if (resultFamily(to) === resultFamily(r.cniVersion) && !same({ ...out, cniVersion: r.cniVersion }, r)) {
        return `convertResult ${r.cniVersion} -> ${to} changed more than the label inside one family`;
      }
      if (trip && resultFamily(to) !== "020") {
        const back = judge(`convertResult ${to} -> ${r.cniVersion}`, [1], () => convert(out, r.cniVersion));
        if (back.failure !== undefined) return back.failure;
        if (back.value !== undefined && !same(back.value, r))
          return `a ${r.cniVersion} result did not survive a trip to ${to} and back`;
      }
      return undefined;
    },
    save: (c) => c,
    load: (saved) => saved as ConvertCase,
  };
}
