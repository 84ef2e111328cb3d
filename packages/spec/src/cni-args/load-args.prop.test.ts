import { expect, test } from "bun:test";
import fc from "fast-check";
import { CniError } from "../error.ts";
import { parseCniArgs } from "./load-args.ts";

const token = fc.stringMatching(/^[A-Za-z0-9_.\-\/:]{1,12}$/);

test("parseCniArgs never throws anything but a CniError", () => {
  fc.assert(
    fc.property(fc.string(), fc.array(token), (s, known) => {
      try {
        parseCniArgs(s, known);
      } catch (err) {
        expect(err).toBeInstanceOf(CniError);
      }
    }),
    { numRuns: 5000 },
  );
});

test("parseCniArgs returns every known pair of a joined pair list, last value winning", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom("IP", "MAC", "K8S_POD_NAME"), token), { minLength: 1 }), (pairs) => {
      const parsed = parseCniArgs(pairs.map(([k, v]) => `${k}=${v}`).join(";"), ["IP", "MAC", "K8S_POD_NAME"]);
      expect(parsed).toEqual(Object.fromEntries(pairs));
    }),
  );
});
