import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import type { PluginCase } from "../case.ts";
import type { FailureKind } from "../judge.ts";
import { runCase } from "../run-case.ts";
import { runPluginFuzz } from "../runner.ts";
import type { Sandbox } from "../sandbox.ts";
import { createLinuxSandbox } from "./sandbox.ts";

// Planted bad plugins (issue 15): each small shell script breaks the protocol in one way,
// and the harness must name that way. `good` keeps every rule, so it must find nothing.
const RESULT = `{"cniVersion":"1.0.0","interfaces":[{"name":"eth0"}],"ips":[]}`;
const PLANTED: Readonly<Record<string, string>> = {
  good: `case "$CNI_COMMAND" in
  ADD) echo '${RESULT}';;
  DEL|CHECK|GC|STATUS) ;;
  VERSION) echo '{"cniVersion":"1.0.0","supportedVersions":["1.0.0"]}';;
  *) echo '{"code":4,"msg":"unknown CNI_COMMAND"}'; exit 1;;
esac`,
  crash: "kill -SEGV $$",
  trace: `echo 'panic: runtime error: index out of range [3] with length 3' >&2
echo 'goroutine 1 [running]:' >&2
echo '{"code":999,"msg":"x"}'; exit 1`,
  nonjson: "echo 'all good'",
  silent: "exit 1",
  nocode: `echo '{"msg":"what went wrong"}'; exit 1`,
  okerror: `echo '{"code":7,"msg":"bad config"}'`,
  hang: "sleep 30",
  writer: `f=/tmp/tscni-fzp-planted-$$; echo x > "$f"; rm -f "$f"; echo '${RESULT}'`,
  // A failed ADD that leaves a veth in the host namespace (its name differs per exec).
  leaker: `[ "$CNI_COMMAND" = ADD ] && ip link add "lk$$" type veth peer name "lp$$"
echo '{"code":7,"msg":"planted failure"}'; exit 1`,
  // A successful ADD whose DEL forgets its veth.
  delleaker: `if [ "$CNI_COMMAND" = ADD ]; then ip link add "dk$$" type veth peer name "dp$$"; echo '${RESULT}'; fi`,
};

const ADD: PluginCase["env"] = {
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "f00d",
  CNI_NETNS: "@NETNS@",
  CNI_IFNAME: "eth0",
  CNI_PATH: "@DIR@",
};
const stdin = new TextEncoder().encode(`{"cniVersion":"1.0.0","name":"n","type":"x"}`);

const skip = skipUnless(
  "the plugin fuzzer on planted plugins",
  firstMissing(missingRoot(), missingTools(["strace", "ip", "nft", "tc"])),
);

describe.skipIf(skip)("the plugin fuzzer in throwaway namespaces", () => {
  let dir = "";
  let sb: Sandbox;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "tscni-fzp-planted-"));
    for (const [name, body] of Object.entries(PLANTED)) {
      writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(dir, name), 0o755);
    }
    sb = createLinuxSandbox({ dir, timeoutMs: 1500 });
  });
  afterAll(() => {
    sb?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The distinct kinds one case shows (an ADD that succeeds is followed by its DEL, which may fail alike). */
  const kinds = async (plugin: string, env = ADD): Promise<FailureKind[]> => [
    ...new Set((await runCase(sb, { plugin, env, stdin }, { baseline: undefined })).map((f) => f.kind)),
  ];

  test("a plugin that keeps the protocol is no failure, for ADD (with its DEL) and VERSION", async () => {
    expect(await kinds("good")).toEqual([]);
    expect(await kinds("good", { CNI_COMMAND: "VERSION" })).toEqual([]);
  });

  test("each planted fault is found as its own kind", async () => {
    expect(await kinds("crash")).toEqual(["signal"]);
    expect(await kinds("trace")).toEqual(["trace"]);
    expect(await kinds("nonjson")).toEqual(["not-json"]);
    expect(await kinds("silent")).toEqual(["not-json"]);
    expect(await kinds("nocode")).toEqual(["bad-error"]);
    expect(await kinds("okerror")).toEqual(["exit-mismatch"]);
    expect(await kinds("writer")).toEqual(["write"]);
  });

  test("a hang is killed at the time limit and counted once", async () => {
    const started = performance.now();
    expect(await kinds("hang")).toEqual(["hang"]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test("a failed ADD that leaves a veth is a leak; a DEL that forgets one is a del-leak", async () => {
    expect(await kinds("leaker")).toEqual(["leak"]);
    expect(await kinds("delleaker")).toEqual(["del-leak"]);
    // The sandbox started over: a good plugin finds a clean baseline again.
    expect(await kinds("good")).toEqual([]);
  });

  test("a short seeded run counts every case in its table and keeps the failures for replay", async () => {
    const r = await runPluginFuzz(sb, { plugins: ["good", "okerror"], seed: 5, cases: 4 });
    expect(r.cases).toBe(8);
    expect(r.rows.get("good")?.kinds).toEqual(expect.objectContaining({ "exit-mismatch": 0 }));
    // okerror exits 0 with an error object whatever it is asked, except where a silent success is allowed.
    expect(r.rows.get("okerror")?.kinds["exit-mismatch"]).toBeGreaterThan(0);
    expect(r.failures.every((f) => f.case.plugin === "okerror")).toBe(true);
  });
});

const ours = join(new URL("../../../../..", import.meta.url).pathname, "dist/bin");
const skipOurs =
  skip ||
  skipUnless(
    "the plugin fuzzer on our dist/bin",
    existsSync(join(ours, "bridge")) ? undefined : "no dist/bin (npm run build)",
  );

describe.skipIf(skipOurs)("the plugin fuzzer on our own plugins", () => {
  test("a short seeded run against dist/bin finds nothing", async () => {
    const sb = createLinuxSandbox({ dir: ours, timeoutMs: 20_000 });
    try {
      const r = await runPluginFuzz(sb, {
        plugins: ["loopback", "host-local", "bridge", "ptp", "tuning", "portmap"],
        seed: 11,
        cases: 3,
      });
      expect(r.failures.map((f) => `${f.case.plugin} ${f.kind}: ${f.detail}`)).toEqual([]);
      expect(r.cases).toBe(18);
    } finally {
      sb.destroy();
    }
  }, 120_000);
});
