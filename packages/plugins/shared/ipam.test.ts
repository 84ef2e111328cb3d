import { afterAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findInPath } from "@tscni/invoke";
import type { CmdArgs, PluginDefinition } from "@tscni/skel";
import type { Result } from "@tscni/spec";
import { definition } from "../host-local/index.ts";
import { delegatingIpam, invokeExec, type DelegateExec } from "./ipam.ts";

const root = mkdtempSync(join(tmpdir(), "tscni-ipam-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HOST_LOCAL_ENTRY = new URL("../host-local/index.ts", import.meta.url).pathname;

function cmdArgs(binDir: string, dataDir: string, version = "1.0.0"): CmdArgs {
  const config = {
    cniVersion: version,
    name: "inproc",
    type: "bridge",
    ipam: { type: "host-local", dataDir, ranges: [[{ subnet: "198.18.5.0/24" }], [{ subnet: "2001:db8:5::/64" }]] },
  };
  return {
    command: "ADD",
    containerID: "ctr-1",
    netns: "/var/run/netns/x",
    ifName: "eth0",
    args: "",
    path: binDir,
    stdinData: new TextEncoder().encode(JSON.stringify(config)),
    config,
  };
}

/** A delegate exec that only records, proving which path ran. */
function recordingExec(calls: string[]): () => Promise<DelegateExec> {
  return async () => ({
    add: async (type): Promise<Result> => {
      calls.push(`exec ADD ${type}`);
      return { cniVersion: "1.0.0", ips: [{ address: "198.18.99.9/24" }] };
    },
    run: async (command, type) => void calls.push(`exec ${command} ${type}`),
  });
}

function tracking(calls: string[]): Record<string, () => Promise<PluginDefinition>> {
  return {
    "host-local": async () => {
      calls.push("in-process");
      return definition;
    },
  };
}

describe("delegatingIpam", () => {
  test("runs host-local in process when CNI_PATH's host-local is this executable", async () => {
    const dir = join(root, "same");
    mkdirSync(join(dir, "bin"), { recursive: true });
    writeFileSync(join(dir, "cni"), "binary");
    symlinkSync(join(dir, "cni"), join(dir, "bin", "host-local"));
    const calls: string[] = [];
    const ipam = delegatingIpam({
      env: {},
      selfPath: join(dir, "cni"),
      inProcess: tracking(calls),
      findInPath,
      exec: recordingExec(calls),
    });
    const a = cmdArgs(join(dir, "bin"), join(dir, "data"));
    const result = await ipam("host-local", a).add();
    expect(result.ips?.map((ip) => ip.address)).toEqual(["198.18.5.2/24", "2001:db8:5::2/64"]);
    expect(readdirSync(join(dir, "data", "inproc"))).toContain("198.18.5.2");
    await ipam("host-local", a).del();
    expect(calls).toEqual(["in-process", "in-process"]);
    expect(readdirSync(join(dir, "data", "inproc"))).not.toContain("198.18.5.2");
  });

  test("execs the delegate when CNI_PATH's host-local is another file (DLG-1)", async () => {
    const dir = join(root, "other");
    mkdirSync(join(dir, "bin"), { recursive: true });
    writeFileSync(join(dir, "bin", "host-local"), "someone else's plugin");
    const calls: string[] = [];
    const ipam = delegatingIpam({
      env: {},
      selfPath: process.execPath,
      inProcess: tracking(calls),
      findInPath,
      exec: recordingExec(calls),
    });
    await ipam("host-local", cmdArgs(join(dir, "bin"), join(dir, "data"))).add();
    await ipam("host-local", cmdArgs(join(dir, "bin"), join(dir, "data"))).status();
    expect(calls).toEqual(["exec ADD host-local", "exec STATUS host-local"]);
  });

  test("fails as the reference does when the type is empty or not in CNI_PATH", async () => {
    const ipam = delegatingIpam({
      env: {},
      selfPath: process.execPath,
      inProcess: {},
      findInPath,
      exec: recordingExec([]),
    });
    await expect(ipam("", cmdArgs(root, root)).add()).rejects.toThrow("no plugin name provided");
    await expect(ipam("nope", cmdArgs(root, root)).del()).rejects.toThrow('failed to find plugin "nope" in path');
  });

  test("gives the same results in process and through a real exec of host-local", async () => {
    const dir = join(root, "both");
    mkdirSync(join(dir, "exec-bin"), { recursive: true });
    mkdirSync(join(dir, "self-bin"), { recursive: true });
    // A tiny host-local executable: the plugin's own entry run by bun.
    const script = join(dir, "run-host-local.ts");
    writeFileSync(
      script,
      `import { main } from ${JSON.stringify(HOST_LOCAL_ENTRY)};\n` +
        `process.exitCode = await main({ env: process.env, readStdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()), stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) });\n`,
    );
    writeFileSync(
      join(dir, "exec-bin", "host-local"),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)}\n`,
    );
    chmodSync(join(dir, "exec-bin", "host-local"), 0o755);
    writeFileSync(join(dir, "cni"), "binary");
    symlinkSync(join(dir, "cni"), join(dir, "self-bin", "host-local"));

    for (const version of ["0.2.0", "0.4.0", "1.1.0"]) {
      const viaExec = delegatingIpam({
        env: {},
        selfPath: join(dir, "cni"),
        inProcess: {},
        findInPath,
        exec: invokeExec,
      });
      const inProc = delegatingIpam({
        env: {},
        selfPath: join(dir, "cni"),
        inProcess: tracking([]),
        findInPath,
        exec: recordingExec([]),
      });
      const execArgs = cmdArgs(join(dir, "exec-bin"), join(dir, `data-exec-${version}`), version);
      const selfArgs = cmdArgs(join(dir, "self-bin"), join(dir, `data-self-${version}`), version);
      const [x, y] = [await viaExec("host-local", execArgs).add(), await inProc("host-local", selfArgs).add()];
      expect(x).toEqual(y);
      const checks = await Promise.all([
        viaExec("host-local", execArgs)
          .check()
          .then(
            () => "ok",
            (e: Error) => e.message,
          ),
        inProc("host-local", selfArgs)
          .check()
          .then(
            () => "ok",
            (e: Error) => e.message,
          ),
      ]);
      // Below 0.4.0 both refuse CHECK with the framework's gate (CHK-9), above both pass.
      expect(checks[0]).toBe(checks[1]);
      await viaExec("host-local", execArgs).del();
      await inProc("host-local", selfArgs).del();
      expect(existsSync(join(dir, `data-exec-${version}`, "inproc", "198.18.5.2"))).toBe(false);
      expect(existsSync(join(dir, `data-self-${version}`, "inproc", "198.18.5.2"))).toBe(false);
      if (version === "0.2.0") continue;
      // A CHECK of a released attachment fails the same way on both paths (CHK-5).
      const failures = await Promise.all([
        viaExec("host-local", execArgs)
          .check()
          .catch((e: Error) => e.message),
        inProc("host-local", selfArgs)
          .check()
          .catch((e: Error) => e.message),
      ]);
      expect(failures[0]).toBe(failures[1]);
      expect(failures[0]).toContain("Failed to find address added by container ctr-1");
    }
  });
});
