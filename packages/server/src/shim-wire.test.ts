import { expect, test } from "bun:test";
import { decodeShimResponse, encodeRequest as shimEncode } from "./shim-wire.ts";
import { decodeResponse, encodeRequest } from "./wire.ts";

const SAMPLES = [
  "{}",
  '{"result":{"cniVersion":"1.1.0"}}',
  '{"error":{"code":7,"msg":"bad"}}',
  '{"error":{"code":7,"msg":"bad","details":"why"}}',
  '{"result":[]}',
  '{"result":"x"}',
  '{"error":{"code":-1,"msg":"x"}}',
  '{"error":{"code":1.5,"msg":"x"}}',
  '{"error":{"code":1}}',
  '{"error":{"code":1,"msg":"x","details":3}}',
  '{"error":"x"}',
  "null",
  "not json",
];

test("the shim's hand-written response check agrees with the daemon's valibot schema on every sample", () => {
  for (const text of SAMPLES) {
    const lite = decodeShimResponse(text);
    const full = decodeResponse(text);
    expect({ text, ok: lite.ok }).toEqual({ text, ok: full.ok });
    if (lite.ok && full.ok) expect(lite.value).toEqual(full.value);
  }
});

test("the shim's check refuses a top-level array, which valibot's object lets through", () => {
  expect(decodeShimResponse("[]").ok).toBe(false);
});

test("the shim's request body is the daemon's encoding byte for byte", () => {
  const env = { CNI_COMMAND: "ADD", CNI_ARGS: "a=b", GONE: undefined };
  const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0","x":"é"}');
  expect(shimEncode(env, stdin)).toBe(encodeRequest(env, stdin));
});
