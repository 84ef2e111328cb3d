import { expect, test } from "bun:test";
import { mutate } from "./bytes.ts";

const b = (s: string) => new TextEncoder().encode(s);
const s = (x: Uint8Array) => new TextDecoder().decode(x);

test("each mutation does what it says, positions taken modulo the length", () => {
  expect(s(mutate(b("abc"), { kind: "flip", at: 1, bit: 0 }))).toBe("acc");
  expect(s(mutate(b("abc"), { kind: "insert", at: 5, bytes: b("X") }))).toBe("aXbc");
  expect(s(mutate(b("abcdef"), { kind: "delete", at: 1, count: 2 }))).toBe("adef");
  expect(s(mutate(b("abcdef"), { kind: "truncate", at: 3 }))).toBe("abc");
  expect(s(mutate(b("abcdef"), { kind: "splice", at: 2, other: b("ZZ") }))).toBe("abZZ");
  expect(mutate(new Uint8Array(0), { kind: "flip", at: 3, bit: 1 }).length).toBe(0);
});
