import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { foldToSchema } from "./index.ts";

const Schema = v.looseObject({
  bridge: v.nullish(v.string()),
  mtu: v.nullish(v.number()),
  ipam: v.nullish(
    v.pipe(
      v.custom(() => true),
      v.looseObject({ type: v.nullish(v.string()) }),
    ),
  ),
  vlanTrunk: v.nullish(v.array(v.nullish(v.looseObject({ minID: v.nullish(v.number()) })))),
  sysctl: v.nullish(v.record(v.string(), v.string())),
});

describe("foldToSchema matches keys to a schema's fields as Go's encoding/json does", () => {
  test("a key in another letter case becomes the field, at every level the schema describes", () => {
    expect(foldToSchema({ Bridge: "br9", IPAM: { TYPE: "host-local" }, VlanTrunk: [{ MINID: 1 }] }, Schema)).toEqual({
      bridge: "br9",
      ipam: { type: "host-local" },
      vlanTrunk: [{ minID: 1 }],
    });
  });

  test("the Kelvin sign and the long s fold as Go folds them", () => {
    expect(foldToSchema({ "\u017fysctl": {} }, Schema)).toEqual({ sysctl: {} });
  });

  test("a later spelling wins, but null keeps an earlier string; null zeroes a map", () => {
    expect(foldToSchema({ bridge: "a", BRIDGE: "b" }, Schema)).toEqual({ bridge: "b" });
    expect(foldToSchema({ bridge: "a", BRIDGE: null }, Schema)).toEqual({ bridge: "a" });
    expect(foldToSchema({ sysctl: { a: "1" }, SYSCTL: null }, Schema)).toEqual({ sysctl: null });
  });

  test("map keys, unknown keys and values the schema does not describe are left alone", () => {
    const value = { sysctl: { "Net.IPv4": "1" }, Other: 1, mtu: "x" };
    expect(foldToSchema(value, Schema)).toBe(value);
  });
});
