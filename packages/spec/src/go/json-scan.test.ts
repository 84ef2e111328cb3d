import { describe, expect, test } from "bun:test";
import { goHugeNumber, goRepeatsKeys } from "./index.ts";

describe("goRepeatsKeys tells a key given twice from the text", () => {
  const repeats = (text: string) => goRepeatsKeys(text, JSON.parse(text));

  test("at any depth", () => {
    expect(repeats('{"a":1,"b":{"c":1,"c":2}}')).toBe(true);
    expect(repeats('[{"a":1},{"a":2,"a":3}]')).toBe(true);
  });

  test("not for unique keys, whatever the strings hold", () => {
    expect(repeats(String.raw`{"a":"\\","b":"\":","c":["\"d\":"," : "]}`)).toBe(false);
    expect(repeats('{"a" : 1 ,\n "b":{ }}')).toBe(false);
    expect(repeats("[1,2]")).toBe(false);
  });
});

describe("goHugeNumber finds a number beyond float64 anywhere in the text", () => {
  test("in any occurrence, but not inside a string", () => {
    expect(goHugeNumber('{"a":[1e400],"a":1}')).toBe("1e400");
    expect(goHugeNumber('{"a":"1e400","b":"\\"1e999","c":-2e308}')).toBe("-2e308");
    expect(goHugeNumber('{"a":1.5e300,"b":"x"}')).toBeUndefined();
  });
});
