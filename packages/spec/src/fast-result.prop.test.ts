import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { NonIntegerNumber } from "./_gojson.ts";
import { result100 } from "./arbitraries.ts";
import { decodeResult100 } from "./fast-result.ts";
import { schemaDecode } from "./parse-schema.ts";
import { parseResult } from "./parse.ts";
import { resultToWire } from "./serialize.ts";

const RUNS = { numRuns: 5_000 };

/** Values the schema treats specially: null, empty, wrong types, odd numbers and IP texts. */
const odd = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    "",
    0,
    -0,
    1.5,
    2 ** 64,
    true,
    [],
    {},
    [null],
    ["a", null],
    "::ffff:198.18.0.1",
    "198.18.0.1/33",
    "2001:DB8::1/64",
    "2001:db8::1",
    "198.018.0.1",
    "198.18.0.5/24",
    "0.0.0.0/0",
    "\ud800",
  ),
  fc.constant(new NonIntegerNumber("1e3")),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A key as a runtime might spell it: another letter case, Go's folding runes, or unknown. */
function respell(key: string, how: number): string {
  switch (how % 4) {
    case 0:
      return key.toUpperCase();
    case 1:
      return key.replace(/k/i, "\u212a").replace(/s/i, "\u017f");
    case 2:
      return `${key}X`;
    default:
      return key[0] === undefined ? key : key[0].toUpperCase() + key.slice(1);
  }
}

/** Every field name of the 1.x result structs: an edit may set any of them anywhere. */
const FIELDS = [
  ...["cniVersion", "interfaces", "ips", "routes", "dns", "name", "mac", "mtu", "sandbox", "socketPath", "pciID"],
  ...["interface", "address", "gateway", "dst", "gw", "advmss", "priority", "table", "scope"],
  ...["nameservers", "domain", "search", "options"],
];

/** Every object and array of a JSON tree, the root first. */
function containers(node: unknown, out: object[] = []): object[] {
  if (node !== null && typeof node === "object" && !(node instanceof NonIntegerNumber)) {
    out.push(node);
    for (const child of Object.values(node)) containers(child, out);
  }
  return out;
}

/**
 * A 1.x result's wire form with up to four edits, each on any object or array of it: a
 * value replaced, a key respelled, or a field of any struct set to an odd value.
 */
const mutated = fc
  .tuple(result100(), fc.array(fc.tuple(fc.nat(), fc.nat(), odd, fc.nat(), fc.nat(2)), { maxLength: 4 }))
  .map(([r, edits]) => {
    const root: unknown = structuredClone(resultToWire(r));
    for (const [where, which, shared, how, kind] of edits) {
      // A copy: the odd values are shared between runs, and an edited one must not come back.
      const value = shared instanceof NonIntegerNumber ? shared : structuredClone(shared);
      const all = containers(root);
      const node = all[where % all.length];
      if (Array.isArray(node)) {
        if (node.length > 0) node[which % node.length] = value;
        continue;
      }
      const o = node as Record<string, unknown>;
      const keys = Object.keys(o);
      const k = keys[which % Math.max(keys.length, 1)];
      if (kind === 0 || k === undefined) o[FIELDS[which % FIELDS.length] ?? "mtu"] = value;
      else if (kind === 1) o[k] = value;
      else {
        o[respell(k, how)] = o[k];
        delete o[k];
      }
    }
    return root;
  });

describe("the hand-written 1.x result decoder never drifts from Result100Schema", () => {
  test("whatever it decodes, the schema decodes to the same result, key order included", () => {
    fc.assert(
      fc.property(mutated, (raw) => {
        const fast = decodeResult100(raw);
        if (fast === undefined) return;
        const slow = schemaDecode("100", raw as Record<string, unknown>);
        expect(slow).toEqual({ ok: fast });
        expect(JSON.stringify(fast)).toBe(JSON.stringify((slow as { ok: unknown }).ok));
      }),
      RUNS,
    );
  });

  test("it decodes every valid 1.x result as printed, so the plugin path never needs the schema", () => {
    fc.assert(
      fc.property(result100(), (r) => {
        const fast = decodeResult100(structuredClone(resultToWire(r)));
        expect(fast).toEqual(r);
      }),
      RUNS,
    );
  });

  test("a refused result keeps the schema's message, path included", () => {
    expect(decodeResult100({ cniVersion: "1.0.0", ips: [{ address: "198.18.0.1/33" }] })).toBeUndefined();
    expect(() => parseResult({ cniVersion: "1.0.0", ips: [{ address: "198.18.0.1/33" }] })).toThrow(
      "invalid result: ips[0].address: invalid CIDR address: 198.18.0.1/33",
    );
    expect(() => parseResult({ cniVersion: "1.1.0", routes: [{ gw: "198.18.0.1" }] })).toThrow(
      "invalid result: routes[0].dst: missing",
    );
  });

  test("keys in another letter case are left to the schema, which folds them as Go does", () => {
    expect(decodeResult100({ CNIVERSION: "1.0.0", IPs: [{ Address: "198.18.0.2/24" }] })).toBeUndefined();
    expect(parseResult({ cniVersion: "1.0.0", IPs: [{ Address: "198.18.0.2/24" }] })).toEqual({
      cniVersion: "1.0.0",
      ips: [{ address: "198.18.0.2/24" }],
    });
  });
});
