import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import * as node from "node:path";
import { basename, dirname, join, normalize } from "./index.ts";

/** Path-like strings: segments of ".", "..", names and empty ones, with leading and trailing slashes. */
const seg = fc.oneof(fc.constantFrom("", ".", "..", "a", "b.c", "..x", "..."), fc.string({ maxLength: 4 }));
const pathText = fc.array(seg, { maxLength: 6 }).map((s) => s.join("/"));

describe("join, dirname and basename compute what node:path does", () => {
  test("normalize and join agree with path.posix on any segments", () => {
    fc.assert(
      fc.property(fc.array(pathText, { maxLength: 4 }), pathText, (parts, p) => {
        expect(normalize(p)).toBe(node.posix.normalize(p));
        expect(join(...parts)).toBe(node.posix.join(...parts));
      }),
      { numRuns: 5_000 },
    );
  });

  test("dirname and basename agree with path.posix on any path", () => {
    fc.assert(
      fc.property(pathText, (p) => {
        expect(dirname(p)).toBe(node.posix.dirname(p));
        expect(basename(p)).toBe(node.posix.basename(p));
      }),
      { numRuns: 5_000 },
    );
  });
});
