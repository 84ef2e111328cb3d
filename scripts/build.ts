/**
 * `npm run build`: compiles the one binary to dist/bin/cni and links every plugin name
 * to it. Autoloading of .env and bunfig.toml is off: a plugin runs as root in whatever
 * directory the runtime is in, and a .env there must not change what it does.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { PLUGINS } from "../packages/cli/src/plugins.ts";
import { PROFILES } from "./record-bytecode-order.ts";

const root = new URL("..", import.meta.url).pathname;
const out = `${root}dist/bin`;
mkdirSync(out, { recursive: true });
// Profile-guided bytecode layout: the functions plugin calls run, placed together at the
// front, so a call maps and decodes fewer pages of the binary (scripts/record-bytecode-order.ts).
const orders = PROFILES.map((p) => `${root}scripts/bytecode-order/${p}.order`).filter((f) => existsSync(f));

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
    ...(orders.length > 0 ? [`--bytecode-order=${orders.join(",")}`] : []),
    // A plugin call runs its code once: JIT compiles there cost CPU, JIT worker threads
    // and pages, and never pay back. 100x JavaScriptCore's tier-up thresholds keeps
    // start-up code in the interpreter; `cni daemon` sets the normal policy back
    // (packages/cli/src/main.ts). docs/PERFORMANCE.md "What changed".
    "--compile-jit-policy=100",
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
