/**
 * `npm run bench` (its portmap part, also `bun run scripts/bench-portmap.ts`): the chain
 * bridge + portmap against the reference's bridge + portmap (/usr/lib/cni, v1.1.1),
 * both run by our `cni add`/`cni del` with CAP_ARGS portMappings, interleaved call by call
 * in one throwaway host namespace; then portmap's ADD time as the nat table grows, at the
 * 1st and the Nth container with port mappings (ours and the reference's, interleaved).
 *
 * BENCH_PM_CHAIN=N containers per side for the chain (default 20); BENCH_PM_GROWTH=N
 * containers per side for the growth run (default 500; 0 skips it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const OURS = new URL("../dist/bin", import.meta.url).pathname;
const REF = "/usr/lib/cni";
const CHAIN = Number(process.env.BENCH_PM_CHAIN ?? 20);
const GROWTH = Number(process.env.BENCH_PM_GROWTH ?? 500);
const MAPS = [
  { hostPort: 8080, containerPort: 80, protocol: "tcp" },
  { hostPort: 8443, containerPort: 443, protocol: "tcp" },
  { hostPort: 5353, containerPort: 53, protocol: "udp" },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timed(argv: string[], env: Record<string, string>, stdin = ""): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(argv, { env, stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${argv.join(" ")} failed: ${out}${err}`);
  return ms;
}

async function inner(): Promise<void> {
  const netns = (process.env.BENCH_NETNS ?? "").split(",");
  const dir = process.env.BENCH_DIR ?? "";
  const sides = [
    { name: "tscni", bin: OURS, bridge: "tscnipmb0", subnet: "198.18.64.0/20" },
    { name: "reference", bin: REF, bridge: "tscnipmb1", subnet: "198.18.80.0/20" },
  ];
  const envOf = (side: (typeof sides)[number]): Record<string, string> => {
    const confDir = join(dir, side.name, "net.d");
    mkdirSync(confDir, { recursive: true });
    const ipam = { type: "host-local", ranges: [[{ subnet: side.subnet }]], dataDir: join(dir, side.name, "ipam") };
    const conf = { cniVersion: "1.0.0", name: `bench-pm-${side.name}`, plugins: [{ type: "bridge", bridge: side.bridge, isGateway: true, ipam }, { type: "portmap", capabilities: { portMappings: true } }] };
    writeFileSync(join(confDir, "10-pm.conflist"), JSON.stringify(conf));
    return { PATH: process.env.PATH ?? "", NETCONFPATH: confDir, CNI_PATH: side.bin, CNI_CACHE_DIR: join(dir, side.name, "cache"), CNI_IFNAME: "eth0", CAP_ARGS: JSON.stringify({ portMappings: MAPS }) };
  };
  const envs = sides.map(envOf);
  const times: Record<string, number[]> = {};
  const record = (k: string, ms: number) => (times[k] ??= []).push(ms);
  const cni = join(OURS, "cni");
  for (const verb of ["add", "del"]) {
    for (let i = 0; i < CHAIN; i++) {
      for (const [s, side] of sides.entries()) {
        record(`${side.name} ${verb}`, await timed([cni, verb, `bench-pm-${side.name}`, netns[s * CHAIN + i]!], envs[s]!));
      }
    }
  }
  console.log(`bridge + portmap chain through \`cni add\`/\`cni del\`, ${CHAIN} containers per side, interleaved; load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
  console.log("| chain | ADD median ms | DEL median ms |\n|---|---|---|");
  for (const side of sides) console.log(`| ${side.name} bridge + portmap | ${median(times[`${side.name} add`]!).toFixed(1)} | ${median(times[`${side.name} del`]!).toFixed(1)} |`);
  const ratio = (verb: string) => (median(times[`tscni ${verb}`]!) / median(times[`reference ${verb}`]!)).toFixed(2);
  console.log(`\nratio tscni/reference: ADD ${ratio("add")}x, DEL ${ratio("del")}x`);
  if (GROWTH > 0) await growth(netns[0]!);
}

/** portmap ADD alone (a prevResult, no bridge) for GROWTH containers per side, interleaved; the times at the start and the end. */
async function growth(netns: string): Promise<void> {
  const at: Record<string, number[]> = {};
  for (let i = 0; i < GROWTH; i++) {
    for (const [s, bin] of [OURS, REF].entries()) {
      const ip = `198.18.${96 + s * 8 + Math.floor(i / 250)}.${(i % 250) + 2}/24`;
      const conf = { cniVersion: "1.0.0", name: "bench-growth", type: "portmap", runtimeConfig: { portMappings: MAPS }, prevResult: { cniVersion: "1.0.0", ips: [{ address: ip }] } };
      const env = { PATH: process.env.PATH ?? "", CNI_COMMAND: "ADD", CNI_CONTAINERID: `grow-${s}-${i}`, CNI_NETNS: netns, CNI_IFNAME: "eth0", CNI_PATH: bin };
      const ms = await timed([join(bin, "portmap")], env, JSON.stringify(conf));
      if (i < 10) (at[`${s} first`] ??= []).push(ms);
      if (i >= GROWTH - 10) (at[`${s} last`] ??= []).push(ms);
    }
  }
  console.log(`\nportmap ADD as the nat table grows (${GROWTH} containers per side, 3 mappings each, interleaved; medians of 10)\n`);
  console.log(`| portmap | 1st-10th ADD ms | ${GROWTH - 9}th-${GROWTH}th ADD ms | growth |\n|---|---|---|---|`);
  for (const [s, name] of ["tscni", "reference"].entries()) {
    const a = median(at[`${s} first`]!);
    const b = median(at[`${s} last`]!);
    console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)}x |`);
  }
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench-portmap: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  process.exitCode = await runInsideThrowawayHost("benchpm", 2 * CHAIN, [process.execPath, "run", import.meta.path, "--inner"]);
}

if (process.argv.includes("--inner")) await inner();
else await outer();
