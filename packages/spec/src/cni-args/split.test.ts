import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { argValue, lenientCniArgs, splitCniArgs as parseCniArgs } from "./split.ts";

describe("parseCniArgs", () => {
  test("reads K=V pairs separated by ; in order", () => {
    expect(parseCniArgs("IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=web")).toEqual({
      ok: true,
      pairs: [
        ["IgnoreUnknown", "1"],
        ["K8S_POD_NAMESPACE", "ns"],
        ["K8S_POD_NAME", "web"],
      ],
    });
  });

  test("reads an empty string as no pairs (CA-3)", () => {
    expect(parseCniArgs("")).toEqual({ ok: true, pairs: [] });
  });

  test("rejects a bare key, a second '=', an empty key and the empty piece of a trailing ';' (CA-3)", () => {
    expect(parseCniArgs("A=1;B")).toEqual({ ok: false, piece: "B" });
    expect(parseCniArgs("A=b=c")).toEqual({ ok: false, piece: "A=b=c" });
    expect(parseCniArgs("=v")).toEqual({ ok: false, piece: "=v" });
    expect(parseCniArgs("A=1;")).toEqual({ ok: false, piece: "" });
  });

  test("round-trips any pairs whose keys and values hold no ';' or '=' (property)", () => {
    const part = fc.string({ minLength: 1 }).filter((s) => !s.includes(";") && !s.includes("="));
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            part,
            part.map((s) => s.slice(1)),
          ),
        ),
        (pairs) => {
          const text = pairs.map(([k, v]) => `${k}=${v}`).join(";");
          expect(parseCniArgs(text)).toEqual({ ok: true, pairs });
        },
      ),
    );
  });
});

describe("argValue", () => {
  test("is case-sensitive and takes the last pair of a key", () => {
    const pairs: [string, string][] = [
      ["K8S_POD_NAME", "a"],
      ["k8s_pod_name", "b"],
      ["K8S_POD_NAME", "c"],
    ];
    expect(argValue(pairs, "K8S_POD_NAME")).toBe("c");
    expect(argValue(pairs, "MISSING")).toBeUndefined();
  });
});

test("lenientCniArgs reads CNI_ARGS as the reference's dhcp does: split at the first =, pieces without one ignored, a later key wins", () => {
  expect([...lenientCniArgs("A=1;junk;B=x=y;A=2;;=z")]).toEqual([
    ["A", "2"],
    ["B", "x=y"],
    ["", "z"],
  ]);
  expect(lenientCniArgs("").size).toBe(0);
});
