import { describe, expect, test } from "bun:test";
import { decodeRequest, decodeResponse, encodeRequest, requestConfig } from "./wire.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("the request", () => {
  test("round-trips the environment and the exact stdin bytes through base64", () => {
    const stdin = bytes('{"cniVersion":"1.0.0","name":"n","type":"cni-shim","x":"ünï"}');
    const decoded = decodeRequest(encodeRequest({ CNI_COMMAND: "ADD", CNI_ARGS: "A=1", UNSET: undefined }, stdin));
    if (!decoded.ok) throw new Error(decoded.problem);
    expect(decoded.value.env).toEqual({ CNI_COMMAND: "ADD", CNI_ARGS: "A=1" });
    expect(requestConfig(decoded.value)).toEqual(stdin);
  });

  test("accepts an empty stdin (VERSION may send nothing)", () => {
    const decoded = decodeRequest(encodeRequest({ CNI_COMMAND: "VERSION" }, new Uint8Array()));
    expect(decoded.ok).toBe(true);
  });

  test("is rejected when it is not JSON", () => {
    const decoded = decodeRequest("{env:");
    expect(decoded).toMatchObject({ ok: false });
    if (!decoded.ok) expect(decoded.problem).toStartWith("request is not JSON");
  });

  test("is rejected without env, with a non-string env value, or with a config that is not base64, naming the path", () => {
    const cases: [string, string][] = [
      [JSON.stringify({ config: "" }), "env"],
      [JSON.stringify({ env: { CNI_COMMAND: 1 }, config: "" }), "env.CNI_COMMAND"],
      [JSON.stringify({ env: {}, config: "not base64!" }), "config must be base64"],
      [JSON.stringify({ env: {} }), "config"],
    ];
    for (const [text, fragment] of cases) {
      const decoded = decodeRequest(text);
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) {
        expect(decoded.problem).toStartWith("invalid request: ");
        expect(decoded.problem).toContain(fragment);
      }
    }
  });
});

describe("the response", () => {
  test("carries a result object, an error object, or nothing", () => {
    expect(decodeResponse('{"result":{"cniVersion":"1.0.0"}}')).toEqual({
      ok: true,
      value: { result: { cniVersion: "1.0.0" } },
    });
    expect(decodeResponse('{"error":{"code":7,"msg":"bad","details":"why"}}')).toEqual({
      ok: true,
      value: { error: { code: 7, msg: "bad", details: "why" } },
    });
    expect(decodeResponse("{}")).toEqual({ ok: true, value: {} });
  });

  test("is rejected when the error has no integer code or no message, or the result is not an object", () => {
    for (const text of [
      '{"error":{"msg":"x"}}',
      '{"error":{"code":1.5,"msg":"x"}}',
      '{"error":{"code":7}}',
      '{"result":[1]}',
      '"ok"',
    ]) {
      const decoded = decodeResponse(text);
      expect(decoded.ok).toBe(false);
    }
  });
});
