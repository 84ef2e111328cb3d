/**
 * `npm run build`: compiles the one binary to dist/bin/cni and links every plugin name
 * to it. Autoloading of .env and bunfig.toml is off: a plugin runs as root in whatever
 * directory the runtime is in, and a .env there must not change what it does.
 */
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { PLUGINS } from "../packages/cli/src/plugins.ts";

const root = new URL("..", import.meta.url).pathname;
const out = `${root}dist/bin`;
mkdirSync(out, { recursive: true });

const proc = Bun.spawnSync(
  [
    process.execPath,
    "build",
    "--compile",
    // Separate chunks per dynamic import: a plugin evaluates only its own code and the
    // node: builtins it needs, which halves start-up against one eager bundle.
    "--splitting",
    // Ship JSC bytecode: each function is otherwise compiled on its first call, which
    // doubles every phase of a short-lived plugin process (docs/PERFORMANCE.md).
    "--bytecode",
    "--format=esm",
    "--minify",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    `${root}packages/cli/src/main.ts`,
    "--outfile",
    `${out}/cni`,
  ],
  { cwd: root, stdout: "inherit", stderr: "inherit" },
);
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1);

for (const name of Object.keys(PLUGINS)) {
  rmSync(`${out}/${name}`, { force: true });
  symlinkSync("cni", `${out}/${name}`);
}
console.log(`built ${out}/cni with links: ${Object.keys(PLUGINS).join(", ") || "(none)"}`);
