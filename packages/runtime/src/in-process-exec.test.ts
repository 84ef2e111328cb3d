import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Exec, ExecOutcome, ExecRequest } from "@tscni/invoke";
import { InProcessExec, type InProcessIO } from "./in-process-exec.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-ipe-"));
const self = join(dir, "cni");
writeFileSync(self, "#!/bin/sh\n", { mode: 0o755 });
symlinkSync(self, join(dir, "bridge"));
symlinkSync(self, join(dir, "other-name"));
writeFileSync(join(dir, "foreign"), "#!/bin/sh\n", { mode: 0o755 });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class RecordingExec implements Exec {
  readonly paths: string[] = [];
  execPlugin(path: string): Promise<ExecOutcome> {
    this.paths.push(path);
    return Promise.resolve({ stdout: new TextEncoder().encode("exec'd"), stderr: new Uint8Array() });
  }
  findInPath(name: string): Promise<string> {
    return Promise.resolve(join(dir, name));
  }
}

const request = (env: Record<string, string> = {}, timeoutMs = 0): ExecRequest => ({
  env,
  stdin: new TextEncoder().encode('{"x":1}'),
  timeoutMs,
});
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

function make(run: (name: string, io: InProcessIO) => Promise<number>, stderr: Uint8Array[] = []) {
  const fallback = new RecordingExec();
  const exec = new InProcessExec(
    fallback,
    { selfPath: self, names: new Set(["bridge", "other-name-not"]), run },
    { stderr: (b) => void stderr.push(b) },
  );
  return { exec, fallback };
}

test("a plugin link to this executable runs in process with the request's stdin and env", async () => {
  const seen: { name: string; env: unknown; stdin: string }[] = [];
  const { exec, fallback } = make(async (name, io) => {
    seen.push({ name, env: io.env, stdin: text(await io.readStdin()) });
    io.stdout("out");
    return 0;
  });
  const outcome = await exec.execPlugin(join(dir, "bridge"), request({ CNI_COMMAND: "ADD" }));
  expect(text(outcome.stdout)).toBe("out");
  expect(outcome.failure).toBeUndefined();
  expect(seen).toEqual([{ name: "bridge", env: { CNI_COMMAND: "ADD" }, stdin: '{"x":1}' }]);
  expect(fallback.paths).toEqual([]);
});

test("another binary, or this one under a name that is not a plugin, is exec'd", async () => {
  const { exec, fallback } = make(() => Promise.resolve(0));
  await exec.execPlugin(join(dir, "foreign"), request());
  await exec.execPlugin(join(dir, "other-name"), request());
  expect(fallback.paths).toEqual([join(dir, "foreign"), join(dir, "other-name")]);
});

test("a non-zero exit status becomes the failure a child's would, with its output kept", async () => {
  const { exec } = make((_n, io) => {
    io.stdout('{"code":7,"msg":"bad"}');
    io.stderr("why");
    return Promise.resolve(1);
  });
  const outcome = await exec.execPlugin(join(dir, "bridge"), request());
  expect(outcome.failure).toBe("exit status 1");
  expect(text(outcome.stdout)).toBe('{"code":7,"msg":"bad"}');
  expect(text(outcome.stderr)).toBe("why");
});

test("a throw past the plugin's framework is a crash: exit status 1 and the error on stderr", async () => {
  const { exec } = make(() => Promise.reject(new Error("boom")));
  const outcome = await exec.execPlugin(join(dir, "bridge"), request());
  expect(outcome.failure).toBe("exit status 1");
  expect(text(outcome.stderr)).toContain("boom");
});

test("a successful plugin's stderr is passed on, as the exec path copies a child's (E-6)", async () => {
  const copied: Uint8Array[] = [];
  const { exec } = make((_n, io) => {
    io.stderr("warning: x\n");
    return Promise.resolve(0);
  }, copied);
  await exec.execPlugin(join(dir, "bridge"), request());
  expect(copied.map(text)).toEqual(["warning: x\n"]);
});

test("a call past its time limit answers as a killed child (EX-2)", async () => {
  const { exec } = make(() => new Promise<number>((resolve) => setTimeout(() => resolve(0), 500)));
  const outcome = await exec.execPlugin(join(dir, "bridge"), request({}, 20));
  expect(outcome.timedOut).toBe(true);
  expect(outcome.failure).toBe("signal: killed");
});

test("concurrent calls each see only their own environment and output", async () => {
  const { exec } = make(async (_n, io) => {
    await Bun.sleep(Number(io.env.WAIT));
    io.stdout(io.env.ID ?? "");
    return 0;
  });
  const outs = await Promise.all(
    ["a", "b", "c"].map((id, i) =>
      exec.execPlugin(join(dir, "bridge"), request({ ID: id, WAIT: String(30 - i * 10) })),
    ),
  );
  expect(outs.map((o) => text(o.stdout))).toEqual(["a", "b", "c"]);
});
