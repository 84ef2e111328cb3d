import { describe, expect, test } from "bun:test";
import { goJsonSyntaxError } from "./json-syntax.ts";

const bytes = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0) & 0xff);

// Each message was printed by Go's json.Unmarshal for the same input.
const CASES: [string, string | undefined][] = [
  ["", "unexpected end of JSON input"],
  ["{", "unexpected end of JSON input"],
  ["garbage", "invalid character 'g' looking for beginning of value"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
  ["[1 2]", "invalid character '2' after array element"],
  ["{} x", "invalid character 'x' after top-level value"],
  ["tru", "invalid character ' ' in literal true (expecting 'e')"],
  ["nUll", "invalid character 'U' in literal null (expecting 'u')"],
  ["-", "invalid character ' ' in numeric literal"],
  ["1.", "invalid character ' ' after decimal point in numeric literal"],
  ["1e+", "invalid character ' ' in exponent of numeric literal"],
  ["01", "invalid character '1' after top-level value"],
  ['"\\x"', "invalid character 'x' in string escape code"],
  ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
  ['"a\tb"', "invalid character '\\t' in string literal"],
  ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
  ["\xef\xbb\xbf{}", "invalid character 'ï' looking for beginning of value"],
  ["\x80", "invalid character '\\u0080' looking for beginning of value"],
  ["\x01", "invalid character '\\x01' looking for beginning of value"],
  ['{"name":"n","a":[1,{"b":null}],"c":-0.5e-3}', undefined],
  ["  [ ]  ", undefined],
  ["5", undefined],
];

describe("goJsonSyntaxError", () => {
  test("reports what Go's json.Unmarshal reports, byte for byte", () => {
    for (const [input, expected] of CASES) expect([input, goJsonSyntaxError(bytes(input))]).toEqual([input, expected]);
  });

  test("accepts whatever JSON.parse accepts among short inputs of JSON characters", () => {
    const alphabet = ["{", "}", "[", "]", '"', ":", ",", "1", "-", ".", "e", " ", "n", "u", "l"];
    for (let i = 0; i < 3000; i++) {
      const s = Array.from(
        { length: 1 + (i % 9) },
        (_, j) => alphabet[(i * 7 + j * 13 + ((i * j) % 5)) % alphabet.length],
      ).join("");
      let valid = true;
      try {
        JSON.parse(s);
      } catch {
        valid = false;
      }
      expect([s, goJsonSyntaxError(bytes(s)) === undefined]).toEqual([s, valid]);
    }
  });
});
