import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandIO } from "../io.ts";
import { verb } from "./lint.ts";

let root: string;
let netDir: string;
let binDir: string;

/** A fake plugin: a shell script that answers VERSION with the given versions. */
function fakePlugin(name: string, versions: readonly string[]): void {
  const reply = JSON.stringify({ cniVersion: "1.1.0", supportedVersions: versions });
  writeFileSync(
    join(binDir, name),
    `#!/bin/sh\nif [ "$CNI_COMMAND" = VERSION ]; then echo '${reply}'; exit 0; fi\necho '{"code":4,"msg":"unexpected"}'; exit 1\n`,
  );
  chmodSync(join(binDir, name), 0o755);
}

function conf(name: string, contents: unknown): void {
  writeFileSync(join(netDir, name), typeof contents === "string" ? contents : JSON.stringify(contents));
}

async function run(
  argv: string[],
  env: Record<string, string> = { CNI_PATH: binDir },
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CommandIO = {
    argv,
    env,
    readStdin: async () => new Uint8Array(),
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
  };
  const code = await verb.run(io);
  return { code, out, err };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "tscni-lint-"));
  netDir = join(root, "net.d");
  binDir = join(root, "bin");
  mkdirSync(netDir);
  mkdirSync(binDir);
  fakePlugin("bridge", ["0.3.1", "0.4.0", "1.0.0", "1.1.0"]);
  fakePlugin("host-local", ["0.3.1", "0.4.0", "1.0.0", "1.1.0"]);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("cni lint", () => {
  test("a clean directory passes with exit 0 and names the default network", async () => {
    conf("10-pods.conflist", {
      cniVersion: "1.0.0",
      name: "pods",
      plugins: [{ type: "bridge", ipam: { type: "host-local" } }],
    });
    const { code, out } = await run([netDir]);
    expect(out).toContain('"pods": loads from 10-pods.conflist');
    expect(out).toContain("defined only in 10-pods.conflist");
    expect(out).toContain(`plugins[0] bridge: ${join(binDir, "bridge")} (supports this version`);
    expect(out).toContain(`Default network (kubelet's pick): "pods" from 10-pods.conflist`);
    expect(out).toContain("No problems found.");
    expect(code).toBe(0);
  });

  test("a broken file, a duplicate name and a missing plugin are explained, with exit 1", async () => {
    conf("05-broken.conflist", {
      cniVersion: "1.0.0",
      name: "broken",
      plugins: [{ type: "bridge" }, { name: "no-type" }],
    });
    conf("10-pods.conflist", { cniVersion: "1.0.0", name: "pods", plugins: [{ type: "bridge" }, { type: "portmap" }] });
    conf("20-pods.conf", { cniVersion: "0.4.0", name: "pods", type: "bridge" });
    const { code, out } = await run([netDir]);
    const broken = join(netDir, "05-broken.conflist");
    // The broken file, with the JSON path of the offending field and libcni's own words.
    expect(out).toContain(
      `${broken}: plugins[1].type: failed to parse plugin config 1: error parsing configuration: missing 'type'`,
    );
    // What the broken file does to the other networks.
    expect(out).toContain(
      'network "pods" cannot be loaded: 05-broken.conflist is broken, and libcni stops at the first broken file it reads',
    );
    // The duplicate name: which file wins and why.
    expect(out).toContain("10-pods.conflist wins over 20-pods.conf: .conflist files are loaded first");
    expect(out).toContain(
      'network "pods" is defined in 2 files (10-pods.conflist, 20-pods.conf); only 10-pods.conflist is used',
    );
    // The missing plugin, with where it is named and where it was looked for.
    expect(out).toContain(
      `network "pods" (10-pods.conflist) plugins[1]: plugin "portmap" is not installed: failed to find plugin "portmap" in path [${binDir}]`,
    );
    // kubelet skips the broken file and the list with a missing plugin, and falls back to the .conf.
    expect(out).toContain(`Default network (kubelet's pick): "pods" from 20-pods.conf`);
    expect(out).toMatch(/passed over: 10-pods\.conflist: plugins\[1\]: plugin "portmap" is not installed/);
    expect(code).toBe(1);
  });

  test("a plugin that does not support the network's version is a problem (VN-5)", async () => {
    fakePlugin("old", ["0.3.0", "0.3.1", "0.4.0"]);
    conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "old" }] });
    const { code, out } = await run([netDir]);
    expect(out).toContain(
      'plugins[0]: plugin old does not support config version "1.0.0" (it supports 0.3.0, 0.3.1, 0.4.0)',
    );
    expect(out).toContain("Default network (kubelet's pick): NONE");
    expect(code).toBe(1);
  });

  test("drop-ins are part of the list that is checked", async () => {
    conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "bridge" }] });
    mkdirSync(join(netDir, "a"));
    conf("a/90-tuning.conf", { type: "tuning" });
    const { code, out } = await run([netDir]);
    expect(out).toContain('network "a", cniVersion 1.0.0, plugins: bridge, tuning');
    expect(out).toContain('plugins[1]: plugin "tuning" is not installed');
    expect(code).toBe(1);
  });

  test("the directory defaults to $NETCONFPATH", async () => {
    conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "bridge" }] });
    const { code, out } = await run([], { CNI_PATH: binDir, NETCONFPATH: netDir });
    expect(out).toContain(`CNI config directory: ${netDir}`);
    expect(code).toBe(0);
  });

  test("a missing directory is a problem", async () => {
    const { code, out } = await run([join(root, "nope")]);
    expect(out).toContain(`the directory ${join(root, "nope")} does not exist`);
    expect(code).toBe(1);
  });

  test("an extension in the wrong letter case is called out", async () => {
    conf("10-a.CONFLIST", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "bridge" }] });
    const { code, out } = await run([netDir]);
    expect(out).toContain("10-a.CONFLIST: ignored (extensions are case-sensitive");
    expect(code).toBe(1);
  });

  test("--help prints the usage and an unknown flag is a usage error", async () => {
    expect((await run(["--help"])).out).toContain("usage: cni lint [dir]");
    const bad = await run(["--frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown flag "--frobnicate"');
  });
});
