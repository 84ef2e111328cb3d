/**
 * The Go emulation against what Go itself printed: each expected text below is the output
 * of go1.19.8 (`fmt.Printf("%q")` and `json.Unmarshal` into an `interface{}`), the Go the
 * reference plugins are built with in Debian, captured once with a five-line Go program.
 */
import { expect, test } from "bun:test";
import { goJsonSyntaxError, goQuote } from "./index.ts";

const bytes = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0) & 0xff);

test("goQuote writes what Go's %q writes", () => {
  const cases: [string, string][] = [
    ["plain", '"plain"'],
    ['quo"te\\back', '"quo\\"te\\\\back"'],
    ["tab\tnl\nnul\x00del\x7f", '"tab\\tnl\\nnul\\x00del\\x7f"'],
    ["ünï €", '"ünï €"'],
    ["bell\x07", '"bell\\a"'],
  ];
  for (const [input, go] of cases) expect(goQuote(input)).toBe(go);
});

test("goJsonSyntaxError says what Go's json.Unmarshal says", () => {
  const cases: [string, string][] = [
    ["\xef\xbb\xbf{}", "invalid character 'ï' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":', "unexpected end of JSON input"],
    ["[1,]", "invalid character ']' looking for beginning of value"],
    ["nul", "invalid character ' ' in literal null (expecting 'l')"],
    ['{"a":1}x', "invalid character 'x' after top-level value"],
    ['"\\x"', "invalid character 'x' in string escape code"],
  ];
  for (const [input, go] of cases) expect(goJsonSyntaxError(bytes(input))).toBe(go);
  expect(goJsonSyntaxError(bytes('{"a":[1,2.5e3,"x",null,true]}'))).toBeUndefined();
});
