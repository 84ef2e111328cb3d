/**
 * Records the bytecode-order profiles that scripts/build.ts lays the binary out by
 * (`--bytecode-order`, docs/PERFORMANCE.md "What changed"): runs the built binary's
 * plugin calls with `BUN_BYTECODE_ORDER_OUT` on the real kernel in throwaway namespaces
 * (root) and writes one profile per call kind to `scripts/bytecode-order/`, in the order
 * build.ts passes them (the most common call first). Profiles match functions by a hash
 * of their syntax, so one recorded on an older build still applies; record again when
 * `bytecodeOrderStats()` shows many cold functions or after large changes to the plugin
 * path. Not a test; needs root.
 *
 *   bun scripts/build.ts && bun scripts/record-bytecode-order.ts && bun scripts/build.ts
 */
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = process.env.BENCH_BIN ?? join(ROOT, "dist/bin");
const OUT = join(ROOT, "scripts/bytecode-order");

/** The profiles, most common call first: build.ts passes them in this order. */
export const PROFILES = [
  "bridge-add",
  "bridge-del",
  "bridge-check",
  "ptp-add",
  "ptp-del",
  "ptp-check",
  "bridge-masq-add",
  "bridge-masq-del",
  "version",
] as const;

async function inner(): Promise<void> {
  const [netns] = (process.env.BENCH_NETNS ?? "").split(",");
  const work = process.env.BENCH_DIR ?? "";
  const raw = join(work, "raw");
  mkdirSync(raw, { recursive: true });
  const run = async (profile: string, plugin: string, command: string, stdin: unknown): Promise<string> => {
    const env = {
      PATH: process.env.PATH ?? "",
      CNI_COMMAND: command,
      CNI_CONTAINERID: `order-${plugin}`,
      CNI_NETNS: netns ?? "",
      CNI_IFNAME: "eth0",
      CNI_ARGS: "",
      CNI_PATH: BIN,
      BUN_BYTECODE_ORDER_OUT: join(raw, `${profile}.order`),
    };
    const proc = Bun.spawn([join(BIN, plugin)], {
      env,
      stdin: new TextEncoder().encode(JSON.stringify(stdin)),
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0)
      throw new Error(`${plugin} ${command}: ${out}${await new Response(proc.stderr).text()}`);
    return out;
  };
  for (const [n, plugin] of ["bridge", "ptp"].entries()) {
    const config = {
      cniVersion: "1.1.0",
      name: `order-${plugin}`,
      type: plugin,
      ...(plugin === "bridge" ? { bridge: "tscnio0", isGateway: true } : {}),
      ipam: { type: "host-local", ranges: [[{ subnet: `198.18.${90 + n}.0/24` }]], dataDir: join(work, "ipam") },
    };
    // A first ADD makes the bridge: the profile is of the common case, a bridge that exists.
    await run(`${plugin}-warm`, plugin, "ADD", config);
    await run(`${plugin}-warm`, plugin, "DEL", config);
    const result = await run(`${plugin}-add`, plugin, "ADD", config);
    await run(`${plugin}-check`, plugin, "CHECK", { ...config, prevResult: JSON.parse(result) as unknown });
    await run(`${plugin}-del`, plugin, "DEL", { ...config, prevResult: JSON.parse(result) as unknown });
  }
  // bridge with ipMasq (podman's default network): the firewall's code on the same pages.
  const masq = {
    cniVersion: "1.1.0",
    name: "order-masq",
    type: "bridge",
    bridge: "tscnio1",
    isGateway: true,
    ipMasq: true,
    ipam: { type: "host-local", ranges: [[{ subnet: "198.18.92.0/24" }]], dataDir: join(work, "ipam") },
  };
  await run("bridge-masq-warm", "bridge", "ADD", masq);
  await run("bridge-masq-warm", "bridge", "DEL", masq);
  const masqResult = await run("bridge-masq-add", "bridge", "ADD", masq);
  await run("bridge-masq-del", "bridge", "DEL", { ...masq, prevResult: JSON.parse(masqResult) as unknown });
  await run("version", "bridge", "VERSION", {});
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const p of PROFILES) renameSync(join(raw, `${p}.order`), join(OUT, `${p}.order`));
  console.log(`recorded ${readdirSync(OUT).join(", ")} in ${OUT}`);
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("record-bytecode-order: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  process.exitCode = await runInsideThrowawayHost("order", 1, [process.execPath, "run", import.meta.path, "--inner"]);
}

if (import.meta.main) {
  if (process.argv.includes("--inner")) await inner();
  else await outer();
}
