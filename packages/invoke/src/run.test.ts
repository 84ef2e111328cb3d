import { describe, expect, test } from "bun:test";
import type { Exec, ExecOutcome, ExecRequest } from "./exec.ts";
import { DEFAULT_TIMEOUT_MS } from "./exec.ts";
import { execPluginWithResult, execPluginWithoutResult } from "./run.ts";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** An Exec that records requests and answers with a fixed outcome. */
function fakeExec(outcome: Partial<ExecOutcome>): Exec & { seen: ExecRequest[] } {
  const seen: ExecRequest[] = [];
  return {
    seen,
    findInPath: async (name) => `/fake/${name}`,
    execPlugin: async (_path, request) => {
      seen.push(request);
      return { stdout: new Uint8Array(), stderr: new Uint8Array(), ...outcome };
    },
  };
}

const conf = enc('{"cniVersion":"1.0.0","name":"n","type":"t"}');

describe("execPluginWithResult through the Exec port", () => {
  test("sends stdin, the P-8 environment and the default two-minute timeout", async () => {
    const exec = fakeExec({ stdout: enc('{"cniVersion":"1.0.0","ips":[{"address":"198.18.0.3/24"}]}') });
    const result = await execPluginWithResult(
      "/fake/t",
      conf,
      { command: "ADD", containerID: "c" },
      { exec, baseEnv: { KEEP: "1" } },
    );
    expect(result).toMatchObject({ cniVersion: "1.0.0", ips: [{ address: "198.18.0.3/24" }] });
    const [req] = exec.seen;
    expect(new TextDecoder().decode(req?.stdin)).toBe('{"cniVersion":"1.0.0","name":"n","type":"t"}');
    expect(req?.env).toMatchObject({ KEEP: "1", CNI_COMMAND: "ADD", CNI_CONTAINERID: "c", CNI_NETNS: "" });
    expect(req?.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
  });

  test("fills a missing result version from the config (RP-2)", async () => {
    const result = await execPluginWithResult(
      "/fake/t",
      conf,
      { command: "ADD" },
      { exec: fakeExec({ stdout: enc("{}") }) },
    );
    expect(result.cniVersion).toBe("1.0.0");
  });

  test("rejects a result whose version no parser has (RP-1)", async () => {
    const exec = fakeExec({ stdout: enc('{"cniVersion":"9.9.9"}') });
    await expect(execPluginWithResult("/fake/t", conf, { command: "ADD" }, { exec })).rejects.toThrow(
      'unsupported CNI result version "9.9.9"',
    );
  });

  test("turns a timed-out run into code 11 with the configured limit (EX-2)", async () => {
    const exec = fakeExec({ failure: "signal: killed", timedOut: true });
    const run = execPluginWithoutResult("/fake/t", conf, { command: "DEL" }, { exec, timeoutMs: 1234 });
    await expect(run).rejects.toMatchObject({ code: 11, msg: 'netplugin "/fake/t" timed out after 1234ms' });
    expect(exec.seen[0]?.timeoutMs).toBe(1234);
  });

  test("ignores the stdout of a successful DEL (DEL-7)", async () => {
    await execPluginWithoutResult("/fake/t", conf, { command: "DEL" }, { exec: fakeExec({ stdout: enc("not json") }) });
  });
});
