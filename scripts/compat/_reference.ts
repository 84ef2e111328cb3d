/**
 * The reference implementation the compatibility tests compare us with: the Go plugins
 * (Debian's containernetworking-plugins, /usr/lib/cni), a Go toolchain and libcni's
 * source (golang-github-appc-cni-dev). Our own small Go programs under
 * scripts/compat/go/<name>/ are compiled offline (GOPATH mode) into a cache directory;
 * no binary is ever written into the tree.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { skipUnless } from "@tscni/spec/testing";

/** Where Debian installs the reference plugins. */
export const REFERENCE_PLUGINS = "/usr/lib/cni";
/** The GOPATH holding libcni's source (github.com/containernetworking/cni). */
export const GOCODE = "/usr/share/gocode";
/** Our compiled binary and its plugin links (`bun run scripts/build.ts`). */
export const OUR_BIN_DIR = new URL("../../dist/bin", import.meta.url).pathname;
/** Our `cni` command. */
export const OUR_CNI = join(OUR_BIN_DIR, "cni");

const GO_SRC = new URL("./go", import.meta.url).pathname;
const CACHE = join(tmpdir(), `tscni-compat-go-${process.getuid?.() ?? 0}`);

/** The `go` command on PATH, or undefined. */
function goCommand(): string | undefined {
  return Bun.which("go") ?? undefined;
}

/**
 * Why the reference pieces a test needs are missing (one line naming them and the Debian
 * packages that provide them), or undefined when everything is there.
 */
export function missingReference(needs: { plugins?: boolean; go?: boolean; ours?: boolean } = {}): string | undefined {
  const missing: string[] = [];
  if ((needs.plugins ?? true) && !existsSync(join(REFERENCE_PLUGINS, "bridge"))) {
    missing.push(`${REFERENCE_PLUGINS}/bridge (apt-get install containernetworking-plugins)`);
  }
  if (needs.go ?? true) {
    if (goCommand() === undefined) missing.push("go (apt-get install golang-go)");
    if (!existsSync(join(GOCODE, "src/github.com/containernetworking/cni/libcni"))) {
      missing.push(`${GOCODE}/src/github.com/containernetworking/cni (apt-get install golang-github-appc-cni-dev)`);
    }
  }
  if ((needs.ours ?? true) && !existsSync(OUR_CNI)) missing.push(`${OUR_CNI} (bun run scripts/build.ts)`);
  return missing.length === 0 ? undefined : `missing ${missing.join(", ")}`;
}

/** True when we run as root (the kernel cases create network namespaces). */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Says why a compat test file is skipped, so a skipped run never looks like a pass; under
 * `CI=true` the skip is a failing test naming the missing piece (issue 10).
 */
export function announceSkip(file: string, reason: string | undefined): void {
  skipUnless(`[compat] ${file}`, reason);
}

/**
 * Compiles scripts/compat/go/<name>/main.go with libcni from Debian's GOPATH, offline,
 * and returns the binary's path. The binary is keyed by a hash of the source (main.go and
 * the packages it imports by relative path, as go/lineproto), so a changed program is
 * rebuilt and concurrent test files share one build.
 */
export function buildGo(name: string): string {
  const src = join(GO_SRC, name);
  const hash = createHash("sha256");
  const main = readFileSync(join(src, "main.go"));
  hash.update(main);
  // Its relative imports (GOPATH mode, e.g. "../lineproto") are part of the program too.
  for (const [, dir] of main.toString().matchAll(/^\s*(?:\w+\s+)?"(\.\.?\/[^"]+)"$/gm)) {
    const pkg = join(src, dir ?? "");
    const files = readdirSync(pkg).filter((n) => n.endsWith(".go"));
    for (const f of files.sort()) hash.update(readFileSync(join(pkg, f)));
  }
  const out = join(CACHE, "bin", `${name}-${hash.digest("hex").slice(0, 12)}`);
  if (existsSync(out)) return out;
  mkdirSync(join(CACHE, "bin"), { recursive: true });
  const partial = `${out}.${process.pid}.tmp`;
  const go = goCommand() ?? "go";
  const proc = Bun.spawnSync([go, "build", "-o", partial, "."], {
    cwd: src,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? tmpdir(),
      GOPATH: GOCODE,
      GO111MODULE: "off",
      GOFLAGS: "",
      GOCACHE: join(CACHE, "gocache"),
      GOPROXY: "off",
      CGO_ENABLED: "0",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (proc.exitCode !== 0) throw new Error(`go build of ${src} failed: ${proc.stderr.toString()}`);
  renameSync(partial, out);
  return out;
}

/** The outcome of one process run. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with exactly `env` and `stdin`, and collects its output. */
export async function run(
  cmd: readonly string[],
  opts: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
): Promise<Run> {
  const proc = Bun.spawn([...cmd], {
    env: { PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin", ...opts.env },
    stdin: new TextEncoder().encode(opts.stdin ?? ""),
    stdout: "pipe",
    stderr: "pipe",
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** A JSON value with object keys sorted at every level (one home: @tscni/fuzz, which `--against` compares with). */
export { canonical } from "@tscni/fuzz";
