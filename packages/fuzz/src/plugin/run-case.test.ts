import { describe, expect, test } from "bun:test";
import { CHAINED_IFNAME, type EnvSet } from "./env.ts";
import type { PluginCase } from "./case.ts";
import { runCase } from "./run-case.ts";
import type { Sandbox, SandboxExec } from "./sandbox.ts";

const BASE = [
  `container link ${CHAINED_IFNAME} kind=veth master= mtu=1500 up mac=aa`,
  `container route table=main type=unicast 198.18.9.0/24 dev=${CHAINED_IFNAME} via= src=198.18.9.2`,
];

/**
 * A kernel whose state is a set of lines: ADD adds `added`, DEL removes `removedByDel`
 * (what the plugin's DEL cleans up), as the sbr-like planted plugins below do.
 */
function fakeSandbox(added: readonly string[], removedByDel: readonly string[]): Sandbox {
  const state = new Set(BASE);
  const ok = (stdout: string, command: string): SandboxExec => ({
    outcome: { command, exitCode: 0, signal: null, stdout, stderr: "", timedOut: false },
    writes: [],
    ms: 1,
  });
  return {
    names: { host: "h", container: "c", tmp: "/tmp/x" },
    async exec(_plugin: string, env: EnvSet) {
      if (env.CNI_COMMAND === "ADD") {
        for (const l of added) state.add(l);
        return ok('{"cniVersion":"1.0.0"}', "ADD");
      }
      for (const l of removedByDel) state.delete(l);
      return ok("", String(env.CNI_COMMAND));
    },
    async snapshot() {
      return new Set(state);
    },
    reset() {},
    destroy() {},
  };
}

const movedRoute = `container route table=100 type=unicast default dev=${CHAINED_IFNAME} via=198.18.9.1 src=`;
const rule = 'container rule {"priority":100,"src":"198.18.9.2","table":"100"}';

const addCase = (plugin: string): PluginCase => ({
  plugin,
  env: {
    CNI_COMMAND: "ADD",
    CNI_CONTAINERID: "f00d",
    CNI_NETNS: "@NETNS@",
    CNI_IFNAME: CHAINED_IFNAME,
    CNI_PATH: "@DIR@",
  },
  stdin: new TextEncoder().encode("{}"),
});

describe("runCase judges what DEL leaves", () => {
  test("a chained plugin's DEL may leave routes through the chained interface: its owner's DEL deletes them", async () => {
    // sbr's DEL, the reference's included, removes its rules and leaves the routes it moved.
    const sb = fakeSandbox([movedRoute, rule], [rule]);
    expect(await runCase(sb, addCase("sbr"), { baseline: undefined })).toEqual([]);
  });

  test("a chained plugin's DEL that leaves a rule leaks", async () => {
    const sb = fakeSandbox([movedRoute, rule], [movedRoute]);
    const findings = await runCase(sb, addCase("sbr"), { baseline: undefined });
    expect(findings.map((f) => f.kind)).toEqual(["del-leak"]);
    expect(findings[0]?.detail).toContain('"table":"100"');
  });

  test("an interface-making plugin's DEL that leaves a route through that name leaks", async () => {
    const sb = fakeSandbox([movedRoute], []);
    const findings = await runCase(sb, addCase("bridge"), { baseline: undefined });
    expect(findings.map((f) => f.kind)).toEqual(["del-leak"]);
  });
});
