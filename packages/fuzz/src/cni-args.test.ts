import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { configCniArgs } from "./cni-args.ts";
import { runTarget } from "./run.ts";
import { configTargetWith } from "./targets/config.ts";

describe("the config target's CNI_ARGS", () => {
  test("are empty, valid K=V sets with the keys plugins read, and malformed ones", () => {
    const seen = fc.sample(configCniArgs, { seed: 11, numRuns: 2000 });
    expect(seen).toContain("");
    for (const key of ["IP", "MAC", "GATEWAY", "IgnoreUnknown", "K8S_POD_NAME"])
      expect(seen.some((a) => a.split(";").some((p) => p.startsWith(`${key}=`)))).toBe(true);
    expect(seen.some((a) => a.split(";").some((p) => !p.includes("=")))).toBe(true);
    // Valid sets the plugins accept: every pair a known key with a value.
    expect(
      seen.some((a) => /^(IgnoreUnknown=1;)?IP=198\.1[89]\.\d+\.\d+$/.test(a) || /^MAC=[0-9a-f:]{17}$/.test(a)),
    ).toBe(true);
  });

  test("reach the plugin decoders: a decoder that crashes on one MAC= is found, and the case replays", () => {
    const decoding = {
      types: ["tuning"],
      decode(_type: string, _stdin: Uint8Array, cniArgs: string) {
        if (/(^|;)MAC=[^;]*-/.test(cniArgs)) throw new TypeError("mac.split is not a function");
        return cniArgs;
      },
    };
    const target = configTargetWith(decoding);
    const r = runTarget(target, { seed: 9, cases: 1500, maxFailures: 1 });
    expect(r.failureList[0]?.failure).toMatch(/^tuning config: TypeError: mac.split is not a function/);
    const saved = r.failureList[0]?.input as { cniArgs?: string };
    expect(saved.cniArgs).toMatch(/MAC=/);
    expect(target.check(target.load(saved))).toMatch(/^tuning config: TypeError/);
  });

  test("a replay file from before CNI_ARGS were generated loads with an empty CNI_ARGS", () => {
    const target = configTargetWith();
    expect(target.load({ base64: Buffer.from("{}").toString("base64") })).toEqual({
      bytes: new TextEncoder().encode("{}"),
      cniArgs: "",
    });
  });
});
