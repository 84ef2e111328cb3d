import { describe, expect, test } from "bun:test";
import { type GoType, goDecodeInto } from "./index.ts";

const STRING: GoType = { kind: "string" };
const T: GoType = {
  kind: "struct",
  name: "pkg.T",
  struct: "T",
  fields: {
    name: STRING,
    key: STRING,
    flags: { kind: "map", name: "map[string]bool", elem: { kind: "bool" } },
    sub: { kind: "struct", name: "pkg.Sub", struct: "Sub", fields: { a: STRING, b: STRING } },
    list: { kind: "slice", name: "[]string", elem: STRING },
    any: { kind: "map", name: "map[string]interface {}", elem: { kind: "any" } },
  },
};

const messages = (text: string) => goDecodeInto(text, T).errors.map((e) => e.message);

describe("goDecodeInto decodes every occurrence of a key as Go's encoding/json does", () => {
  test("a wrong type in an earlier occurrence of a repeated key is an error", () => {
    expect(messages('{"name":0,"name":"a"}')).toEqual([
      "json: cannot unmarshal number into Go struct field T.name of type string",
    ]);
  });

  test("a key in another letter case is the same field, and Go's first error is the first in the text", () => {
    const { errors } = goDecodeInto('{"nAmE":0,"NAME":true,"name":"a"}', T);
    expect(errors.map((e) => e.path)).toEqual([["nAmE"], ["NAME"]]);
    expect(errors[0]?.message).toBe("json: cannot unmarshal number into Go struct field T.name of type string");
  });

  test("the Kelvin sign folds onto k, as Go folds it", () => {
    expect(goDecodeInto('{"\u212aey":"v"}', T).value).toEqual({ key: "v" });
  });

  test("the last occurrence of a string wins, and null leaves it as it was", () => {
    expect(goDecodeInto('{"name":"a","Name":"b"}', T).value).toEqual({ name: "b" });
    expect(goDecodeInto('{"name":"a","NAME":null}', T).value).toEqual({ name: "a" });
  });

  test("repeated structs and maps merge; null zeroes a map", () => {
    expect(goDecodeInto('{"sub":{"a":"1"},"Sub":{"b":"2"}}', T).value).toEqual({ sub: { a: "1", b: "2" } });
    expect(goDecodeInto('{"flags":{"x":true},"flags":{"y":false}}', T).value).toEqual({
      flags: { x: true, y: false },
    });
    expect(goDecodeInto('{"flags":{"x":true},"flags":null}', T).value).toEqual({});
  });

  test("map values are type-checked at every occurrence, named by their key", () => {
    expect(messages('{"flags":{"x":"yes","x":true}}')).toEqual([
      "json: cannot unmarshal string into Go struct field T.flags.x of type bool",
    ]);
  });

  test("errors inside a nested struct name that struct and the field path", () => {
    expect(messages('{"sub":{"A":1},"sub":{"a":"x"}}')).toEqual([
      "json: cannot unmarshal number into Go struct field Sub.sub.a of type string",
    ]);
    expect(messages('{"sub":"x"}')).toEqual([
      "json: cannot unmarshal string into Go struct field T.sub of type pkg.Sub",
    ]);
  });

  test("a slice re-decoded shorter keeps Go's backing array under null elements", () => {
    expect(goDecodeInto('{"list":["a","b"],"list":[null]}', T).value).toEqual({ list: ["a"] });
    expect(goDecodeInto('{"list":["a"],"list":[]}', T).value).toEqual({ list: [] });
    expect(messages('{"list":[1],"list":["a"]}')).toEqual([
      "json: cannot unmarshal number into Go struct field T.list of type string",
    ]);
  });

  test("keys without a field are skipped whatever they hold, and interface values are taken whole", () => {
    expect(goDecodeInto('{"other":{"name":0},"any":{"k":[1,{"a":"}"}]}}', T)).toEqual({
      value: { any: { k: [1, { a: "}" }] } },
      errors: [],
    });
  });

  test("a document of the wrong kind is a Go value error; null is no error", () => {
    expect(messages("[1]")).toEqual(["json: cannot unmarshal array into Go value of type pkg.T"]);
    expect(goDecodeInto("null", T)).toEqual({ value: undefined, errors: [] });
  });

  test("strings with escapes and whitespace between tokens decode as JSON.parse does", () => {
    expect(goDecodeInto(' { "na\\u006de" : "a\\"b}" , "key" : "\\\\" } ', T).value).toEqual({
      name: 'a"b}',
      key: "\\",
    });
  });
});

describe("goDecodeInto reads values as Go does", () => {
  test("a lone surrogate escape becomes U+FFFD, in strings and inside interface values", () => {
    expect(goDecodeInto('{"name":"\\ud800x","any":{"k":["\\udc00"]}}', T).value).toEqual({
      name: "\ufffdx",
      any: { k: ["\ufffd"] },
    });
  });

  test("a number beyond float64 in an interface value is an error even in an earlier occurrence", () => {
    expect(messages('{"any":{"a":[1e400]},"any":{}}')).toEqual([
      "json: cannot unmarshal number 1e400 into Go struct field T.any.a of type float64",
    ]);
  });
});
