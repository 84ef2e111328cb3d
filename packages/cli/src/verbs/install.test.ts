import { afterAll, describe, expect, test } from "bun:test";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandIO } from "../io.ts";
import { PLUGINS } from "../plugins.ts";
import { installBinary, runningCompiled, verb } from "./install.ts";

const root = mkdtempSync(join(tmpdir(), "tscni-install-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function install(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CommandIO = {
    argv,
    env: {},
    readStdin: async () => new Uint8Array(),
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
  };
  return { code: await verb.run(io), out, err };
}

describe("cni install", () => {
  test("copies the binary as cni (mode 0755) and links every plugin name to it", async () => {
    const from = join(root, "built-cni");
    writeFileSync(from, "#!/bin/sh\necho binary\n");
    const dir = join(root, "bin");
    const r = await install(["--dir", dir, "--from", from]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "cni"), "utf8")).toBe("#!/bin/sh\necho binary\n");
    expect(statSync(join(dir, "cni")).mode & 0o777).toBe(0o755);
    for (const name of ["bridge", "ptp", "host-local", "loopback", ...Object.keys(PLUGINS)]) {
      expect(readlinkSync(join(dir, name))).toBe("cni");
    }
    expect(r.out).toContain(`installed ${join(dir, "cni")}`);
  });

  test("re-running replaces the binary and the links, even stale files named like a plugin", () => {
    const dir = join(root, "again");
    mkdirSync(dir);
    writeFileSync(join(dir, "bridge"), "an old reference plugin");
    const from = join(root, "v2");
    writeFileSync(from, "v2");
    installBinary(from, dir, ["bridge", "ptp"]);
    installBinary(from, dir, ["bridge", "ptp"]);
    expect(lstatSync(join(dir, "bridge")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "bridge"), "utf8")).toBe("v2");
  });

  test("refuses to replace a directory named like a plugin", () => {
    const dir = join(root, "withdir");
    mkdirSync(join(dir, "ptp"), { recursive: true });
    writeFileSync(join(root, "v3"), "v3");
    expect(() => installBinary(join(root, "v3"), dir, ["ptp"])).toThrow("is a directory");
  });

  test("needs --dir, and the compiled binary unless --from is given", async () => {
    expect((await install([])).code).toBe(2);
    expect(runningCompiled()).toBe(false);
    const r = await install(["--dir", join(root, "x")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("not running as the compiled binary");
  });
});
