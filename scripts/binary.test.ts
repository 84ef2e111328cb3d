/**
 * The one compiled binary: picked by argv[0], lists its verbs, and cannot be steered by a
 * `.env` or `bunfig.toml` in the directory it runs in (ARCHITECTURE.md "One binary": a
 * plugin runs as root wherever the runtime happens to be).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingFile, skipUnless } from "@tscni/spec/testing";

const BIN = new URL("../dist/bin", import.meta.url).pathname;
const CNI = join(BIN, "cni");
const run = skipUnless("the compiled binary's tests", missingFile(CNI, "npm run build")) ? describe.skip : describe;

function exec(argv: string[], opts: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}) {
  const p = Bun.spawnSync(argv, {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? "", ...opts.env },
    stdin: new TextEncoder().encode(opts.stdin ?? ""),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

run("the compiled binary", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "tscni-binary-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("cni --help lists the verbs", () => {
    const r = exec([CNI, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("convert");
  });

  test("a link's name picks the plugin: loopback answers VERSION with the spec's reply shape (VER-2)", () => {
    const link = join(dir, "loopback");
    symlinkSync(CNI, link);
    const r = exec([link], { env: { CNI_COMMAND: "VERSION" }, stdin: '{"cniVersion":"1.0.0"}' });
    expect(r.code).toBe(0);
    const reply = JSON.parse(r.stdout);
    expect(reply.supportedVersions).toContain("1.1.0");
  });

  test("a .env in the working directory cannot set CNI_COMMAND", () => {
    const cwd = join(dir, "dotenv");
    Bun.spawnSync(["mkdir", "-p", cwd]);
    writeFileSync(join(cwd, ".env"), "CNI_COMMAND=VERSION\n");
    // Without CNI_COMMAND a plugin prints its about text to stderr and exits 0 (§1.11 step 2);
    // had the .env been read, it would print the VERSION reply on stdout instead.
    const r = exec([join(BIN, "loopback")], { cwd, stdin: "{}" });
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("CNI protocol versions supported");
  });

  test("a bunfig.toml in the working directory cannot preload code", () => {
    const cwd = join(dir, "bunfig");
    Bun.spawnSync(["mkdir", "-p", cwd]);
    const marker = join(cwd, "pwned");
    writeFileSync(join(cwd, "evil.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");\n`);
    writeFileSync(join(cwd, "bunfig.toml"), 'preload = ["./evil.ts"]\n[run]\npreload = ["./evil.ts"]\n');
    const r = exec([join(BIN, "loopback")], { cwd, env: { CNI_COMMAND: "VERSION" }, stdin: "{}" });
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const help = exec([CNI, "--help"], { cwd });
    expect(help.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
